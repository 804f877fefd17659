import DocumentStore
import FirestoreWire
import Foundation
import GRPCCore

/// Errors of a call to the server as the store's callers see them: the server's status
/// becomes the `FirestoreErrorCode` of the same number with the server's message
/// (`WireError.firestoreError`), and a server that cannot be reached or does not answer in
/// time is named with its address.
enum RemoteError {
    /// `deadline`: how long the call was given, for the message when it ran out.
    static func publicError(_ error: Error, server: String, call: String, deadline: RemoteConnection.Deadline? = nil) -> Error {
        switch error {
        case let error as RPCError:
            switch error.code {
            case .unavailable:
                // The reason alone too, for a status line that names the server itself.
                return FirestoreErrorCode(.unavailable, userInfo: [
                    NSLocalizedDescriptionKey: "the Firestore server at \(server) cannot be reached (\(call)): \(error.message)",
                    NSLocalizedFailureReasonErrorKey: error.message,
                ])
            case .deadlineExceeded:
                return FirestoreErrorCode(.deadlineExceeded, "the Firestore server at \(server) did not answer \(call) within \((deadline ?? .call).seconds) seconds")
            default:
                return WireError.firestoreError(code: error.code.rawValue, message: error.message)
            }
        case is CancellationError:
            return FirestoreErrorCode(.cancelled, "\(call) to the Firestore server at \(server) was cancelled")
        default:
            return DocumentStore.publicError(error)
        }
    }

    /// A response the client cannot read (a value or name the server should not have sent).
    static func badResponse(_ message: String, server: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.dataLoss, "the Firestore server at \(server) sent \(message)")
    }
}

import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

extension WireError {
    /// The status for any error a store call threw (`init(firestoreError:)`).
    init(_ error: any Error, database: ServedDatabase) {
        switch error {
        case let error as WireError:
            self = error
        case FirestoreWrite.PreconditionFailure.missing(let path):
            self = .notFound("No document to update: \(database.name(of: path))")
        case FirestoreWrite.PreconditionFailure.alreadyExists(let path):
            self = WireError(code: .alreadyExists, message: "Document already exists: \(database.name(of: path))")
        case FirestoreWrite.PreconditionFailure.updatedAt(let path, let actual, let required):
            self = Self.updateTimeMismatch(name: database.name(of: path), actual: actual, required: required)
        case let error as RPCError:
            self = WireError(code: error.code, message: error.message)
        default:
            self = WireError(firestoreError: error) ?? WireError(code: .internalError, message: "\(error)")
        }
    }

    /// An `update_time` precondition that does not hold, as Google's emulator answers it: a
    /// time later than the document's is a bad argument (no write could have made it); an
    /// earlier one, or any time on a missing document, fails the precondition, the versions
    /// given in microseconds (0: no document).
    static func updateTimeMismatch(name: String, actual: Timestamp?, required: Timestamp) -> WireError {
        if let actual, required > actual {
            return .invalidArgument("Invalid base version, it is greater than the stored version: \(name)")
        }
        return .failedPrecondition("the stored version (\(actual?.backendVersion ?? 0)) does not match the required base version (\(required.backendVersion))")
    }
}

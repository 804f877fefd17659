import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

extension WireError {
    /// The status for any error a store call threw: Firestore's codes are gRPC's, one for one.
    init(_ error: any Error, database: ServedDatabase) {
        switch error {
        case let error as WireError:
            self = error
        case FirestoreWrite.PreconditionFailure.missing(let path):
            self = .notFound("No document to update: \(database.name(of: path))")
        case FirestoreWrite.PreconditionFailure.alreadyExists(let path):
            self = WireError(code: .alreadyExists, message: "Document already exists: \(database.name(of: path))")
        case FirestoreWrite.PreconditionFailure.updatedAt(let path, let actual, let required):
            self = .failedPrecondition("The document \(database.name(of: path)) was updated at \(actual.map { "\($0)" } ?? "no time (it does not exist)"), not at \(required) as the precondition requires")
        case let error as RPCError:
            self = WireError(code: error.code, message: error.message)
        default:
            let nsError = error as NSError
            if nsError.domain == FirestoreErrorDomain, let status = Status.Code(rawValue: nsError.code), let code = RPCError.Code(status) {
                self = WireError(code: code, message: nsError.localizedDescription)
            } else {
                self = WireError(code: .internalError, message: "\(error)")
            }
        }
    }
}

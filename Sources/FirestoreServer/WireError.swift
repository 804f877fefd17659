import DocumentStore
import Foundation
import GRPCCore
import SwiftProtobuf

/// A request the server refuses, with the status Firestore gives and a message naming what is
/// wrong; every error a method meets becomes one (`rpcError(_:)`), so none leaves unexplained.
struct WireError: Error {
    let code: RPCError.Code
    let message: String

    static func invalidArgument(_ message: String) -> WireError { WireError(code: .invalidArgument, message: message) }
    static func notFound(_ message: String) -> WireError { WireError(code: .notFound, message: message) }
    static func failedPrecondition(_ message: String) -> WireError { WireError(code: .failedPrecondition, message: message) }
    static func unimplemented(_ message: String) -> WireError { WireError(code: .unimplemented, message: message) }

    var rpcError: RPCError { RPCError(code: code, message: message) }

    /// Refuses a message carrying fields Shelf's protocol leaves out (a feature Shelf does not
    /// have, such as vector search or query explain), rather than answering as if they were
    /// not there. `known` names such fields by number for the message.
    static func refuseUnknownFields(of message: some SwiftProtobuf.Message, in field: String, known: [Int: String] = [:]) throws(WireError) {
        let bytes = message.unknownFields.data
        guard !bytes.isEmpty else { return }
        var tag = 0, shift = 0
        for byte in bytes.prefix(5) {
            tag |= Int(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 { break }
        }
        let number = tag >> 3
        let name = known[number].map { "\($0) (field \(number))" } ?? "field \(number)"
        throw .unimplemented("\(field): \(name) is not supported by Shelf")
    }
}

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

import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore
import SwiftProtobuf

/// A request the server refuses, with the status Firestore gives and a message naming what is
/// wrong; every error a method meets becomes one (`rpcError(_:)`), so none leaves unexplained.
package struct WireError: Error {
    package let code: RPCError.Code
    package let message: String

    package init(code: RPCError.Code, message: String) {
        self.code = code
        self.message = message
    }

    package static func invalidArgument(_ message: String) -> WireError { WireError(code: .invalidArgument, message: message) }
    package static func notFound(_ message: String) -> WireError { WireError(code: .notFound, message: message) }
    package static func failedPrecondition(_ message: String) -> WireError { WireError(code: .failedPrecondition, message: message) }
    package static func unimplemented(_ message: String) -> WireError { WireError(code: .unimplemented, message: message) }
    package static func aborted(_ message: String) -> WireError { WireError(code: .aborted, message: message) }

    package var rpcError: RPCError { RPCError(code: code, message: message) }

    // Firestore's error codes are gRPC's status codes, one for one: the one mapping, both ways.

    /// A store's error (`FirestoreErrorCode`) as the status of its code; nil for any other error.
    package init?(firestoreError error: any Error) {
        let error = error as NSError
        guard error.domain == FirestoreErrorDomain, let status = Status.Code(rawValue: error.code), let code = RPCError.Code(status) else { return nil }
        self.init(code: code, message: error.localizedDescription)
    }

    /// The status as `google.rpc.Status` carries it (a Listen target's cause, a write's result).
    package var status: Google_Rpc_Status {
        var status = Google_Rpc_Status()
        status.code = Int32(code.rawValue)
        status.message = message
        return status
    }

    /// A status as the store's callers see it: the `FirestoreErrorCode` of the same number
    /// (`unknown` for a number Firestore has not), with the server's message.
    package static func firestoreError(code: Int, message: String) -> FirestoreErrorCode {
        FirestoreErrorCode(FirestoreErrorCode.Code(rawValue: code) ?? .unknown, message)
    }

    package static func firestoreError(_ status: Google_Rpc_Status) -> FirestoreErrorCode {
        firestoreError(code: Int(status.code), message: status.message)
    }

    /// Refuses a message carrying fields Shelf's protocol leaves out (a feature Shelf does not
    /// have, such as vector search or query explain), rather than answering as if they were
    /// not there. `known` names such fields by number for the message.
    package static func refuseUnknownFields(of message: some SwiftProtobuf.Message, in field: String, known: [Int: String] = [:]) throws(WireError) {
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

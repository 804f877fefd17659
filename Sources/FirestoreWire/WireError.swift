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

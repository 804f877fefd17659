import DocumentStore
import Foundation
import PostgresNIO

/// A PostgresNIO error as a `FirestoreErrorCode` whose message names the server and the
/// reason (PSQLError's own description hides both); the reason alone is its
/// `NSLocalizedFailureReasonErrorKey`, so an app can say it beside the server, e.g. "offline".
enum PostgresFailure {
    /// SQLSTATEs after which the same transaction may succeed when run again.
    static let retryableStates: Set<String> = ["40001", "40P01"]

    /// A query not sent: the connection was closed already.
    struct ConnectionClosed: Error {}

    /// A query the server did not answer in time.
    struct NoAnswer: Error {
        let seconds: Int64
    }

    static func sqlState(_ error: Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    static func isConnectionLost(_ error: Error) -> Bool {
        guard let error = error as? PSQLError else { return error is ChannelError || error is IOError || error is ConnectionClosed || error is NoAnswer }
        return [.serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError].contains(error.code)
    }

    static func error(_ error: Error, server: String, doing operation: String) -> Error {
        guard error is PSQLError || error is PostgresError || error is ChannelError || error is IOError || error is NIOConnectionError
              || error is ConnectionClosed || error is NoAnswer else { return error }
        let reason = reason(error)
        return FirestoreErrorCode(code(of: error), "cannot \(operation) \(server): \(reason)", reason: reason)
    }

    private static func code(of error: Error) -> FirestoreErrorCode.Code {
        if error is NoAnswer { return .deadlineExceeded }
        if let state = sqlState(error) {
            if retryableStates.contains(state) { return .aborted }
            if state.hasPrefix("28") { return .permissionDenied }  // invalid authorization
            if state == "3D000" { return .notFound }                // no such database
            // The connection failed or the server ended it (shut down, or the backend killed):
            // the same call may pass on a new connection.
            if state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) { return .unavailable }
            if state.hasPrefix("22") || state.hasPrefix("23") { return .invalidArgument }
            return .internal
        }
        return .unavailable
    }

    static func reason(_ error: Error) -> String {
        if error is ConnectionClosed { return "the server closed the connection" }
        if let error = error as? NoAnswer { return "the server did not answer within \(error.seconds) seconds" }
        guard let error = error as? PSQLError else { return networkReason(error) }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + state
        }
        if let underlying = error.underlying { return networkReason(underlying) }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
        case .clientClosedConnection: return "the connection was closed"
        case .authMechanismRequiresPassword: return "the server asks for a password and the URL gives none"
        default: return "\(error.code)"
        }
    }

    /// A connection failure in words ("Connection refused"), not as NIO prints it.
    private static func networkReason(_ error: Error) -> String {
        if let error = error as? NIOConnectionError {
            if let io = error.connectionErrors.first?.error as? IOError { return String(cString: strerror(io.errnoCode)) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot resolve the host name" }
            if let first = error.connectionErrors.first { return "\(first.error)" }
            return "no address to connect to"
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}

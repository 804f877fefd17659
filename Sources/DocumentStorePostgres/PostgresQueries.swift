import DocumentStore
import PostgresNIO

/// Runs queries on a connection and blocks until their rows arrive, never forever: a query
/// sent on a connection the server has just closed can be left unanswered by PostgresNIO, so
/// a closed connection fails at once and an answer that takes longer than `timeout` fails too.
struct PostgresQueries {
    /// Generous: a query may wait for another client's locks or read a large collection.
    static let timeout = Duration.seconds(60)

    let connection: PostgresConnection
    let logger: Logger
    /// How long an answer may take; longer for what is slow by nature (building an index).
    var timeout = Self.timeout

    @discardableResult
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        guard !connection.isClosed else { throw PostgresFailure.ConnectionClosed() }
        let (connection, logger) = (connection, logger)
        do {
            return try BlockingBridge.call(timeout: timeout) { try await connection.query(query, logger: logger).collect() }
        } catch is BlockingBridge.TimedOut {
            connection.close().whenComplete { _ in }  // no answer: this connection is of no more use
            throw PostgresFailure.NoAnswer(seconds: timeout.components.seconds)
        }
    }
}

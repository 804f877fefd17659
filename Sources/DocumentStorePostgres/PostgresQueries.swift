import PostgresNIO

/// Runs queries on a connection and blocks until their rows arrive, never forever: a query
/// sent on a connection the server has just closed can be left unanswered by PostgresNIO, so
/// a closed connection fails at once and an answer that takes longer than `timeout` fails too.
struct PostgresQueries {
    /// Generous: a query may wait for another client's locks or read a large collection.
    static let timeout = TimeAmount.seconds(60)

    let connection: PostgresConnection
    let logger: Logger
    /// How long an answer may take; longer for what is slow by nature (building an index).
    var timeout = Self.timeout

    @discardableResult
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        guard !connection.isClosed else { throw PostgresFailure.ConnectionClosed() }
        let answer = connection.query(query, logger: logger)
        let promise = answer.eventLoop.makePromise(of: PostgresQueryResult.self)
        answer.cascade(to: promise)
        let timer = answer.eventLoop.scheduleTask(in: timeout) { [timeout] in
            promise.fail(PostgresFailure.NoAnswer(seconds: timeout.nanoseconds / 1_000_000_000))
        }
        defer { timer.cancel() }
        do {
            return try promise.futureResult.wait().rows
        } catch let error as PostgresFailure.NoAnswer {
            connection.close().whenComplete { _ in }  // no answer: this connection is of no more use
            throw error
        }
    }
}

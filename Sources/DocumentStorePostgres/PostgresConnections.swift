import DocumentStore
import Foundation
import PostgresNIO

/// A store's connections for reading and writing: PostgresNIO's own pool (`PostgresClient`) of
/// up to `size`, opened as calls need them and kept for the next, so calls from several threads
/// run at once and a call waits only when all are busy. A connection that drops leaves the
/// pool, and the next call gets another.
///
/// The store's calls are synchronous: each borrows a connection through `BlockingBridge.lease`
/// and runs its queries on the caller's thread. PostgresClient, while it cannot connect, keeps
/// calls waiting and tries again for a minute before failing them without the reason, and once
/// the server is back it waits out its backoff (up to a minute) before connecting again. So a
/// call that waits longer than `patience` for a connection the pool has room for connects once
/// on its own: it fails at once with that attempt's error ("Connection refused", a wrong
/// password); and once such an attempt has failed, the server being back, the pool is started
/// afresh rather than waited for. A pool that never failed to connect is only ever waited for:
/// it is busy, not broken.
final class PostgresConnections: @unchecked Sendable {
    let size: Int
    private let address: PostgresAddress
    private let logger: Logger
    private struct State {
        var client: PostgresClient
        var running: Task<Void, Never>
        /// Connections lent to callers now, and when the last was lent.
        var lent = 0
        var lastLentAt = ContinuousClock.now
        /// The server refused a connection since this pool started (so it may be backing off).
        var wasRefused = false
        /// How many pools this store started: one, and one more each time it started afresh.
        var starts = 1
        var isClosed = false
    }
    private let state: Locked<State>
    /// How long a call waits for a connection before asking the server itself whether it can
    /// connect: a connection opens in a few milliseconds.
    static let patience = Duration.milliseconds(250)

    init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
        size = address.poolSize
        let (client, running) = Self.start(address, size: size, logger: logger)
        state = Locked(State(client: client, running: running))
    }

    /// A pool that keeps its connections however idle the store is, as a store's app may sit
    /// for hours between calls, and pings none of them (a lost one fails its call, which runs
    /// again on another: `PostgresServer.withConnection`).
    private static func start(_ address: PostgresAddress, size: Int, logger: Logger) -> (PostgresClient, Task<Void, Never>) {
        var configuration = address.clientConfiguration
        configuration.options.maximumConnections = size
        configuration.options.minimumConnections = 0
        configuration.options.connectionIdleTimeout = .seconds(365 * 24 * 3600)
        configuration.options.keepAliveBehavior = nil
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return (client, BlockingBridge.start { await client.run() })
    }

    /// How many pools this store started (a busy pool is never started afresh).
    var starts: Int { state.withLock { $0.starts } }

    private var closedError: FirestoreErrorCode {
        FirestoreErrorCode(.failedPrecondition, "the store at \(address.description) was closed")
    }

    /// The pool was started afresh while a call waited on the one before: the call asks again.
    private struct Renewed: Error {}

    /// Runs `body` on a connection of the pool's for the caller alone, on the caller's thread.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            let client = try state.withLock { state in
                guard !state.isClosed else { throw closedError }
                return state.client
            }
            var isLent = false
            do {
                return try BlockingBridge.lease({ use in
                    try await client.withConnection { connection in await use(connection) }
                }, patience: Self.patience, stillWaiting: { reasonNotToWait(on: client) }) { connection in
                    isLent = true
                    state.withLock { state in
                        state.lent += 1
                        state.lastLentAt = .now
                    }
                    defer { state.withLock { $0.lent -= 1 } }
                    return try body(connection)
                }
            } catch {
                if state.withLock({ $0.isClosed }) { throw closedError }
                guard !isLent else { throw error }
                // Not lent: the pool gave up (its circuit breaker) or was started afresh.
                if !(error is Renewed), let failure = connectFailure() { throw failure }
                if !(error is Renewed) { renew(client) }
                if attempt == 3 {
                    throw FirestoreErrorCode(.unavailable, "no connection to \(address.description) could be had after starting its pool afresh twice (\(error))")
                }
            }
        }
    }

    /// Why a call should stop waiting for a connection: the store was closed; or the pool has
    /// room and lent none for a while and the server refuses a connection (its reason), or
    /// takes one after refusing one before (the pool is waiting out its backoff, and is started
    /// afresh). A pool merely busy or slow lends on, and is never sent an extra connection.
    private func reasonNotToWait(on client: PostgresClient) -> (any Error)? {
        let (current, lent, lastLentAt, isClosed) = state.withLock { ($0.client, $0.lent, $0.lastLentAt, $0.isClosed) }
        if isClosed { return closedError }
        if current !== client { return Renewed() }
        guard lent < size, ContinuousClock.now - lastLentAt >= Self.patience else { return nil }
        if let failure = connectFailure() {
            state.withLock { state in if state.client === client { state.wasRefused = true } }
            return failure
        }
        guard state.withLock({ $0.wasRefused }) else { return nil }
        renew(client)
        return Renewed()
    }

    /// Why the server cannot be connected to now, if it cannot.
    private func connectFailure() -> (any Error)? {
        do {
            try address.connect(logger: logger).closeWaiting()
            return nil
        } catch {
            return error
        }
    }

    /// Starts the pool afresh in place of `client` (unless another call did already).
    private func renew(_ client: PostgresClient) {
        let (address, size, logger) = (address, size, logger)
        let replaced = state.withLock { state -> Task<Void, Never>? in
            guard state.client === client, !state.isClosed else { return nil }
            let old = state.running
            (state.client, state.running) = Self.start(address, size: size, logger: logger)
            state.starts += 1
            return old
        }
        replaced?.cancel()
    }

    /// Has a second connection open beside the first, `prepare`d, so the first call made while
    /// another runs need not wait for one to open (a few milliseconds to connect and
    /// authenticate) nor for the server's first look at the tables (`prepare`).
    func openSpare(prepare: @escaping @Sendable (PostgresConnection) throws -> Void) {
        guard size > 1 else { return }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            try? withConnection { first in
                try withConnection { second in
                    try prepare(first)
                    try prepare(second)
                }
            }
        }
    }

    /// Closes the pool's connections (waiting a little for calls under way) and fails the
    /// calls after this.
    func close() {
        let running = state.withLock { state -> Task<Void, Never>? in
            defer { state.isClosed = true }
            return state.isClosed ? nil : state.running
        }
        guard let running else { return }
        running.cancel()
        _ = try? BlockingBridge.call(timeout: .seconds(5)) { await running.value }
    }
}

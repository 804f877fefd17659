import DocumentStore
import Foundation
import PostgresNIO

/// Transactions' locks (`TransactionLocks`) as every process on the database sees them:
/// PostgreSQL's session advisory locks, each holder's on a connection of its own, kept until
/// it lets go; so a transaction of one `shelf serve` (or Swift program) that read a document
/// makes another process's transaction or write of it wait, as one process's table does.
/// PostgreSQL's queue grants a lock to the waiters in turn, its `lock_timeout` ends a wait
/// ("Transaction lock timeout.") and its deadlock detector breaks a circle across processes.
///
/// These connections are not the pool's: a holder keeps one while its transaction runs, and
/// the commit needs a pool connection meanwhile. Their locks use the two-key form, which never
/// meets the one-key locks a commit takes for its own duration (`PostgresServer.transact`).
final class PostgresAdvisoryLocks: StorageLocks, @unchecked Sendable {
    /// The first key of every lock taken here ("SHLF"); the second is the hash of the lock's name.
    static let space: Int32 = 0x5348_4C46
    /// SQLSTATEs: a lock not granted within `lock_timeout`, and a deadlock PostgreSQL broke.
    private static let lockNotAvailable = "55P03", deadlockDetected = "40P01"
    private static let timeoutSlack = 100

    private let address: PostgresAddress
    private let logger: Logger

    private struct Session {
        let connection: PostgresConnection
        /// The locks held, by name, so a lock held already costs no round trip.
        var held: [String: TransactionLocks.Mode] = [:]
        var busy = false
        var releaseWhenDone = false
    }

    private struct State {
        var sessions: [Data: Session] = [:]
        var idle: [PostgresConnection] = []
        /// The `lock_timeout` each connection has, in milliseconds, by its id: set again only
        /// when a wait differs by more than `timeoutSlack`, so a lock costs one round trip.
        var lockTimeouts: [Int: Int] = [:]
        /// Holders whose first connection is being opened.
        var connecting: Set<Data> = []
        var isClosed = false
    }

    private let state = Locked(State())
    /// One `lock` at a time per holder (a client may send two reads of one transaction at
    /// once): a second waits here for the first to end, so a connection is never shared.
    private let turns = NSCondition()

    init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
    }

    func lock(_ keys: [(TransactionLocks.Key, TransactionLocks.Mode)], for owner: Data, waitingAtMost wait: Duration) throws {
        let (connection, needed) = try claim(keys, for: owner)
        guard !needed.isEmpty else { return done(owner, granted: [], lost: false) }
        let queries = PostgresQueries(connection: connection, logger: logger)
        let milliseconds = max(1, Int(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000))
        do {
            let set = state.withLock { $0.lockTimeouts[connection.id] }
            if set.map({ abs($0 - milliseconds) > Self.timeoutSlack }) ?? true {
                try queries.rows("SELECT set_config('lock_timeout', \(String(milliseconds) + "ms"), false)")
                state.withLock { $0.lockTimeouts[connection.id] = milliseconds }
            }
            // In one order of the hashes, as every holder takes them.
            try queries.rows("""
                SELECT count(CASE WHEN x THEN pg_advisory_lock(\(Self.space), hashtext(k))::text
                                  ELSE pg_advisory_lock_shared(\(Self.space), hashtext(k))::text END)
                FROM (SELECT k, x FROM unnest(\(needed.map(\.0.text))::text[], \(needed.map { $0.1 == .exclusive })::bool[]) AS t(k, x)
                      ORDER BY hashtext(k)) AS s
                """)
        } catch {
            let lost = PostgresFailure.isConnectionLost(error) || connection.isClosed
            done(owner, granted: [], lost: lost)
            switch PostgresFailure.sqlState(error) {
            case Self.lockNotAvailable?:
                throw FirestoreErrorCode(.aborted, TransactionLocks.timeoutMessage)
            case Self.deadlockDetected?:
                throw FirestoreErrorCode(.aborted, "Aborted: transactions of several processes waited for each other's documents; the client's library runs it again.")
            default:
                throw PostgresFailure.error(error, server: address.description, doing: "lock documents in")
            }
        }
        done(owner, granted: needed, lost: false)
    }

    func release(_ owner: Data) {
        let session = state.withLock { state -> Session? in
            guard let session = state.sessions[owner] else { return nil }
            if session.busy {
                state.sessions[owner]?.releaseWhenDone = true
                return nil
            }
            state.sessions[owner] = nil
            return session
        }
        guard let session else { return }
        DispatchQueue.global().async { [self] in unlock(session) }
    }

    /// Closes the idle connections; those of holders close when they let go.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { connection.closeWaiting() }
    }

    /// The owner's connection, marked busy (an idle one, or a new one), and the keys it does
    /// not hold yet, each once in its strongest mode.
    private func claim(_ keys: [(TransactionLocks.Key, TransactionLocks.Mode)], for owner: Data) throws
        -> (PostgresConnection, [(TransactionLocks.Key, TransactionLocks.Mode)]) {
        var wanted: [TransactionLocks.Key: TransactionLocks.Mode] = [:]
        for (key, mode) in keys where wanted[key] != .exclusive { wanted[key] = mode }
        turns.lock()
        while state.withLock({ $0.sessions[owner]?.busy == true || $0.connecting.contains(owner) }) { turns.wait() }
        let claimed = state.withLock { state -> (PostgresConnection, [String: TransactionLocks.Mode])? in
            if state.sessions[owner] == nil, let connection = state.idle.popLast() {
                state.sessions[owner] = Session(connection: connection)
            }
            guard let session = state.sessions[owner] else {
                state.connecting.insert(owner)
                return nil
            }
            state.sessions[owner]!.busy = true
            return (session.connection, session.held)
        }
        turns.unlock()
        let connection: PostgresConnection, held: [String: TransactionLocks.Mode]
        if let claimed {
            (connection, held) = claimed
        } else {
            let opened = Result { try address.connect(logger: logger) }
            turns.withLock {
                state.withLock { state in
                    state.connecting.remove(owner)
                    if case .success(let connection) = opened { state.sessions[owner] = Session(connection: connection, busy: true) }
                }
                turns.broadcast()
            }
            do { connection = try opened.get() } catch {
                throw PostgresFailure.error(error, server: address.description, doing: "lock documents in")
            }
            held = [:]
        }
        let needed = wanted.filter { key, mode in held[key.text] != .exclusive && (mode == .exclusive || held[key.text] == nil) }
        return (connection, needed.map { ($0.key, $0.value) })
    }

    /// Ends a `lock`: notes what it took, and lets go now if a release came meanwhile (or the
    /// connection was lost, with its locks).
    private func done(_ owner: Data, granted: [(TransactionLocks.Key, TransactionLocks.Mode)], lost: Bool) {
        turns.lock()
        defer {
            turns.broadcast()
            turns.unlock()
        }
        let ending = state.withLock { state -> Session? in
            guard var session = state.sessions[owner] else { return nil }
            session.busy = false
            for (key, mode) in granted where session.held[key.text] != .exclusive { session.held[key.text] = mode }
            if lost || session.releaseWhenDone {
                state.sessions[owner] = nil
                return session
            }
            state.sessions[owner] = session
            return nil
        }
        guard let ending else { return }
        if lost {
            state.withLock { $0.lockTimeouts[ending.connection.id] = nil }
            ending.connection.close().whenComplete { _ in }
        } else {
            DispatchQueue.global().async { [self] in unlock(ending) }
        }
    }

    /// Lets go of a session's locks and keeps its connection for the next holder.
    private func unlock(_ session: Session) {
        do {
            // Also what a failed `lock` took before it failed, which `held` does not name.
            try PostgresQueries(connection: session.connection, logger: logger).rows("SELECT pg_advisory_unlock_all()")
        } catch {
            // Its locks end with the session.
            state.withLock { $0.lockTimeouts[session.connection.id] = nil }
            return session.connection.close().whenComplete { _ in }
        }
        let keep = state.withLock { state in
            if !state.isClosed { state.idle.append(session.connection) }
            return !state.isClosed
        }
        if !keep { session.connection.closeWaiting() }
    }
}

import DocumentStore
import Foundation
import PostgresNIO

/// The indexes that serve pages ordered by fields (`PostgresPageQuery.orderIndex`), as
/// Firestore keeps an index of every field: each made once per database, one at a time on a
/// connection of their own, `CONCURRENTLY`, so writers go on while one is built (a minute at
/// ten million rows). A page waits for its order's index (`waitFor`), which goes ahead of
/// those only prepared (`prepare`: a list's columns, made before anyone sorts by them).
///
/// Each index is tried once per client: one that could not be made (another client is building
/// it, the user may not create indexes) leaves its pages to be sorted by the server, which
/// reads along the index once another client has made it. One tried while the server could not
/// be reached is tried again by the next page.
final class PostgresOrderIndexes: @unchecked Sendable {
    typealias Index = (name: String, creation: String)

    private let address: PostgresAddress
    private let logger: Logger
    private let condition = NSCondition()
    // Under `condition`:
    /// The indexes tried, made or not: no page waits for them again.
    private var tried: Set<String> = []
    /// How many attempts at each index ended, so a page waiting for one knows when its ended.
    private var attempts: [String: Int] = [:]
    /// Those to build, the next first.
    private var pending: [Index] = []
    /// How many pages wait for each index (`waitFor`), by name.
    private var waiting: [String: Int] = [:]
    private var building: String?
    private var isBuilderRunning = false
    private var isClosed = false
    private var builderConnection: PostgresConnection?

    private var buildCount = 0
    private var builderStarts = 0
    /// For tests: how many indexes this client built, and how often its builder set to work.
    var built: Int { condition.withLock { buildCount } }
    var buildersStarted: Int { condition.withLock { builderStarts } }

    /// As long as one build may take: an hour is a collection of hundreds of millions.
    static let buildTimeout = Duration.seconds(3600)

    init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
    }

    /// Has `index` built in the background, after those asked for before it.
    func prepare(_ index: Index) {
        condition.withLock {
            guard !tried.contains(index.name), building != index.name, !pending.contains(where: { $0.name == index.name }) else { return }
            pending.append(index)
            startBuilder()
        }
    }

    /// Returns once `index` is there, or its build has ended without it (the page is then
    /// sorted by the server): built next, ahead of any only prepared.
    func waitFor(_ index: Index) {
        condition.lock()
        defer { condition.unlock() }
        guard !tried.contains(index.name), !isClosed else { return }
        let attempt = attempts[index.name, default: 0]
        if building != index.name {
            pending.removeAll { $0.name == index.name }
            pending.insert(index, at: 0)
            startBuilder()
        }
        waiting[index.name, default: 0] += 1
        while attempts[index.name, default: 0] == attempt && !isClosed { condition.wait() }
        waiting[index.name, default: 0] -= 1
    }

    /// Whether a page is waiting for `index` now.
    func isWaitedFor(_ index: Index) -> Bool {
        condition.withLock { waiting[index.name, default: 0] > 0 }
    }

    /// Whether `index` was tried already: a page ordered by it need not wait for it.
    func wasTried(_ index: Index) -> Bool {
        condition.withLock { tried.contains(index.name) }
    }

    /// Whether `index` is there, valid (made by another client or an earlier run), asked on
    /// the caller's `connection`, so the first page does not wait for the builder's own
    /// connection to open only to find it; one found is not tried again.
    func isMade(_ index: Index, on connection: PostgresConnection) throws -> Bool {
        guard try Self.state(of: index, PostgresQueries(connection: connection, logger: logger))?.isValid == true else { return false }
        condition.withLock { _ = tried.insert(index.name) }
        return true
    }

    /// Whether `index` is valid and whether a build of it is under way; nil when there is none.
    private static func state(of index: Index, _ queries: PostgresQueries) throws -> (isValid: Bool, isBuilding: Bool)? {
        try queries.rows("""
            SELECT i.indisvalid, EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid)
            FROM pg_index i WHERE i.indexrelid = to_regclass(\(index.name))
            """).first.map { try $0.decode((Bool, Bool).self) }
    }

    /// Stops building: what is pending is dropped, and a build under way is left to fail
    /// with its connection (its index, left invalid, is made again by the next client).
    func close() {
        let connection = condition.withLock {
            isClosed = true
            pending = []
            condition.broadcast()
            return builderConnection
        }
        connection?.close().whenComplete { _ in }  // the builder waits for it
    }

    /// Under `condition`.
    private func startBuilder() {
        guard !isBuilderRunning, !isClosed else { return }
        isBuilderRunning = true
        builderStarts += 1
        Thread.detachNewThread { [self] in buildPending() }
    }

    private func buildPending() {
        var connection: PostgresConnection?
        while let index = condition.withLock({ () -> Index? in
            guard !isClosed, !pending.isEmpty else {
                isBuilderRunning = false
                return nil
            }
            building = pending[0].name
            return pending.removeFirst()
        }) {
            var isUnreachable = false
            do {
                if connection == nil || connection!.isClosed {
                    connection = try address.connect(logger: logger)
                    condition.withLock { builderConnection = connection }
                }
                if try !build(index, on: connection!) { logger.notice("Shelf: the order index \(index.name) is being made by another client") }
            } catch {
                isUnreachable = PostgresFailure.isConnectionLost(error) || connection?.isClosed != false
                logger.notice("Shelf: the order index \(index.name) was not made: \(error)")
            }
            condition.withLock {
                if !isUnreachable { tried.insert(index.name) }
                attempts[index.name, default: 0] += 1
                building = nil
                condition.broadcast()
            }
        }
        condition.withLock { builderConnection = nil }
        connection?.closeWaiting()
    }

    /// Makes `index` unless it is there, then has the planner learn its expressions (ANALYZE):
    /// until then it guesses that a collection holds one row and sorts the whole collection
    /// instead of reading the index (576 ms instead of 2 ms at a million rows), and after a
    /// bulk load nothing may prompt autovacuum to learn it. An index left invalid by a build
    /// that failed is dropped and made again; one another client is building is left to it.
    /// Returns whether the index is there, valid.
    private func build(_ index: Index, on connection: PostgresConnection) throws -> Bool {
        var queries = PostgresQueries(connection: connection, logger: logger)
        queries.timeout = Self.buildTimeout
        switch try Self.state(of: index, queries) {
        case (true, _)?: return true
        case (false, true)?: return false
        case (false, false)?: try queries.rows(PostgresQuery(unsafeSQL: "DROP INDEX CONCURRENTLY IF EXISTS \(index.name)"))
        case nil: break
        }
        try queries.rows(PostgresQuery(unsafeSQL: index.creation))
        try queries.rows("ANALYZE shelf_documents")
        condition.withLock { buildCount += 1 }
        return try queries.rows("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(\(index.name))").first?.decode(Bool.self) == true
    }
}

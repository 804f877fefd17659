// DocumentStorePostgres: stores on PostgreSQL (`postgresql://` URLs). Server/ is Firestore over
// any database server that reads and writes documents as JSON text (`DocumentServer`): query
// pages, counts and sums pushed down, commits in one transaction, changes by notification;
// the rest of the module is PostgreSQL's SQL for it, through PostgresNIO.

import DocumentStore
import Foundation
import PostgresNIO

/// The backend of a store on PostgreSQL: its documents in a database (see `PostgresSchema`),
/// through PostgresNIO; Firestore's semantics over them come with `DocumentServer`.
///
/// Calls come from any thread and block until the server answers, each on a connection of the
/// store's pool (`PostgresConnections`, PostgresNIO's `PostgresClient`: `?pool=N` in the URL, 4
/// by default). Listeners share one connection of their own (`PostgresChanges`).
final class PostgresServer: DocumentServer, SubcollectionIndex, LockingStorage, @unchecked Sendable {
    let address: PostgresAddress
    let logger: Logger
    let pool: PostgresConnections
    let orderIndexes: PostgresOrderIndexes
    private let changes: PostgresChanges
    /// When this client last removed versions past the window (seconds; `pruneVersions`).
    let versionsPrunedAt = Locked<Int64>(0)
    /// Transactions' locks for every process on the database (`TransactionLocks` takes them).
    private let advisoryLocks: PostgresAdvisoryLocks
    var storageLocks: StorageLocks { advisoryLocks }
    /// How many times a commit is tried when the server reports a serialization failure or a
    /// deadlock before `.aborted` is returned (a transaction's caller then runs its block again).
    static let commitAttempts = 5

    init(url: URL) throws {
        address = try PostgresAddress(url: url)
        var logger = Logger(label: "DocumentStorePostgres")
        logger.logLevel = .critical
        self.logger = logger
        changes = PostgresChanges(address: address, logger: logger)
        pool = PostgresConnections(address: address, logger: logger)
        orderIndexes = PostgresOrderIndexes(address: address, logger: logger)
        advisoryLocks = PostgresAdvisoryLocks(address: address, logger: logger)
        // Connect now, so a wrong address or password is said when the store is opened.
        try withConnection(doing: "open the store at") { connection in
            try PostgresSchema.migrate(connection, logger: logger)
            try Self.warm(connection, logger: logger)
        }
        pool.openSpare { [logger] in try Self.warm($0, logger: logger) }
    }

    /// Has the server look up the documents' table and its indexes for the connection (a query
    /// that reads no row), which its first query on them would otherwise wait for: some 5 ms
    /// on a new connection, before the first rows of a list. Never behind another session's
    /// lock on the table (`LOCK TABLE`): the look is then left to the first query.
    private static func warm(_ connection: PostgresConnection, logger: Logger) throws {
        let queries = PostgresQueries(connection: connection, logger: logger)
        try queries.rows("SET lock_timeout = '20ms'")
        do {
            try queries.rows("SELECT 1 FROM shelf_documents WHERE false")
        } catch where PostgresFailure.sqlState(error) == Self.lockNotAvailable {}
        try queries.rows("RESET lock_timeout")
    }

    /// The SQLSTATE of a lock not granted within `lock_timeout`.
    private static let lockNotAvailable = "55P03"

    var description: String { address.description }

    /// Runs `body` on a connection of the pool. A connection lost before `body` could finish
    /// is closed (the pool lets it go), and `body` runs once more on another when `retry`;
    /// errors come back as `FirestoreErrorCode`s naming the server.
    func withConnection<T>(doing operation: String, retry: Bool = true, _ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            var isLost = false
            do {
                return try pool.withConnection { connection in
                    do {
                        return try givingUpOnCancel(connection) { try body(connection) }
                    } catch {
                        isLost = PostgresFailure.isConnectionLost(error) || connection.isClosed
                        if isLost { connection.closeWaiting() }
                        throw error
                    }
                }
            } catch {
                if isLost && retry && attempt == 1 { continue }
                throw PostgresFailure.error(error, server: description, doing: operation)
            }
        }
    }

    /// The server's process of each connection by its id, for `givingUpOnCancel`.
    private let backendProcesses = Locked<[Int: Int32]>([:])

    /// Runs `body` on `connection`; when the read that runs it is given up on
    /// (`ReadCancellation`: a list's window replaced before its rows came), the server is asked
    /// to cancel what the connection is running (`pg_cancel_backend`, from a connection of its
    /// own), so its cores go to the reads still wanted.
    private func givingUpOnCancel<T>(_ connection: PostgresConnection, _ body: () throws -> T) throws -> T {
        guard let cancellation = ReadCancellation.current else { return try body() }
        let process = try backendProcesses.withLock({ $0[connection.id] }) ?? {
            let process = try PostgresQueries(connection: connection, logger: logger).rows("SELECT pg_backend_pid()").first?.decode(Int32.self) ?? 0
            backendProcesses.withLock { $0[connection.id] = process }
            return process
        }()
        let (address, serverLogger) = (address, logger)
        return try cancellation.whileRunning(onCancel: {
            guard let canceller = try? address.connect(logger: serverLogger) else { return }
            _ = try? PostgresQueries(connection: canceller, logger: serverLogger).rows("SELECT pg_cancel_backend(\(process))")
            canceller.closeWaiting()
        }, body)
    }

    private func documents(_ query: PostgresQuery, on connection: PostgresConnection) throws -> [ServerDocument] {
        try PostgresQueries(connection: connection, logger: logger).rows(query).map { row in
            let (path, json) = try row.decode((String, String).self)
            return ServerDocument(path: path, json: PostgresNulEscape.original(json: json))
        }
    }

    // MARK: Reading

    func read(_ paths: [String]) throws -> [ServerDocument] {
        try withConnection(doing: "read documents from") { connection in
            try documents("SELECT path, fields::text FROM shelf_documents WHERE path = ANY(\(paths))", on: connection)
        }
    }

    func times(_ paths: [String]) throws -> [String: DocumentTimes] {
        try withConnection(doing: "read documents' times from") { connection in
            let rows = try PostgresQueries(connection: connection, logger: logger).rows("""
                SELECT path, \(unescaped: Self.timesColumns) FROM shelf_documents WHERE path = ANY(\(paths))
                """)
            var times: [String: DocumentTimes] = [:]
            for row in rows {
                let (path, created, updated) = try row.decode((String, Int64, Int64).self)
                times[path] = Self.times(created: created, updated: updated)
            }
            return times
        }
    }

    /// A document's create and update times as two columns of microseconds since 1970, read
    /// back by `times(created:updated:)`.
    static let timesColumns = "(extract(epoch FROM create_time) * 1000000)::int8, (extract(epoch FROM update_time) * 1000000)::int8"

    static func times(created: Int64, updated: Int64) -> DocumentTimes {
        DocumentTimes(created: timestamp(microseconds: created), updated: timestamp(microseconds: updated))
    }

    /// A time as PostgreSQL keeps it: microseconds since 1970.
    static func timestamp(microseconds: Int64) -> Timestamp {
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return remainder < 0 ? Timestamp(seconds: seconds - 1, nanoseconds: Int32(remainder + 1_000_000) * 1000)
            : Timestamp(seconds: seconds, nanoseconds: Int32(remainder) * 1000)
    }

    func read(_ selection: ServerSelection) throws -> [ServerDocument] {
        var sql = PostgresSelectionSQL()
        let query = PostgresQuery(unsafeSQL: "SELECT path, fields::text FROM shelf_documents WHERE \(sql.conditions(selection))", binds: sql.binds)
        return try withConnection(doing: "read the \(selection.isGroup ? "collection group" : "collection") \(selection.collection) from") { connection in
            try documents(query, on: connection)
        }
    }

    func readPage(_ page: ServerPage) throws -> [ServerDocument] {
        let query = PostgresPageQuery(page).query
        let operation = "read a page of \(page.selection.collection) from"
        // The first page ordered by some fields waits for their index (once per database)
        // unless it is there already.
        if let index = PostgresPageQuery.orderIndex(page), !orderIndexes.wasTried(index),
           try !withConnection(doing: operation, { try orderIndexes.isMade(index, on: $0) }) {
            orderIndexes.waitFor(index)
        }
        return try withConnection(doing: operation) { connection in
            try documents(query, on: connection)
        }
    }

    func prepareOrder(_ page: ServerPage) {
        if let index = PostgresPageQuery.orderIndex(page) { orderIndexes.prepare(index) }
    }

    func isWaitingForOrder(_ page: ServerPage) -> Bool {
        PostgresPageQuery.orderIndex(page).map(orderIndexes.isWaitedFor) ?? false
    }

    /// PostgreSQL's plan for a page's query (`EXPLAIN`, a line a step): whether an index serves
    /// its order, which no answer tells.
    func plan(of page: ServerPage) throws -> String {
        var query = PostgresPageQuery(page).query
        query.sql = "EXPLAIN " + query.sql
        return try withConnection(doing: "plan a page of \(page.selection.collection) in") { connection in
            try strings(query, on: connection).joined(separator: "\n")
        }
    }

    func readSlice(_ selection: ServerSelection, after: String?, limit: Int) throws -> [ServerDocument] {
        var sql = PostgresSelectionSQL()
        var conditions = sql.conditions(selection)
        if let after { conditions += " AND path > \(sql.bind(after))" }
        // Served by the index on (parent or collection_id, path).
        let query = PostgresQuery(unsafeSQL: "SELECT path, fields::text FROM shelf_documents WHERE \(conditions) ORDER BY path LIMIT \(limit)", binds: sql.binds)
        return try withConnection(doing: "read the \(selection.isGroup ? "collection group" : "collection") \(selection.collection) from") { connection in
            try documents(query, on: connection)
        }
    }

    func count(_ selection: ServerSelection) throws -> Int {
        var sql = PostgresSelectionSQL()
        let query = PostgresQuery(unsafeSQL: "SELECT count(*) FROM shelf_documents WHERE \(sql.conditions(selection))", binds: sql.binds)
        return try withConnection(doing: "count the documents of \(selection.collection) in") { connection in
            try PostgresQueries(connection: connection, logger: logger).rows(query).first?.decode(Int.self) ?? 0
        }
    }

    func count(_ page: ServerPage) throws -> Int {
        let query = PostgresPageQuery(page, counting: true).query
        return try withConnection(doing: "count a page of \(page.selection.collection) in") { connection in
            try PostgresQueries(connection: connection, logger: logger).rows(query).first?.decode(Int.self) ?? 0
        }
    }

    func sums(_ selection: ServerSelection, fields: [[String]]) throws -> ServerSums {
        var sql = PostgresSelectionSQL()
        let query = PostgresSums.query(selection, fields: fields, sql: &sql)
        return try withConnection(doing: "add up the documents of \(selection.collection) in") { connection in
            try PostgresSums.sums(try PostgresQueries(connection: connection, logger: logger).rows(query), fields: fields.count)
        }
    }

    func documentIDs(in collection: String) throws -> [String] {
        let prefix = collection + "/"
        let length = Int32(prefix.unicodeScalars.count)  // PostgreSQL counts characters as code points
        let upper = PostgresSelectionSQL.upperBound(ofPathsUnder: prefix)
        return try withConnection(doing: "list the documents of \(collection) in") { connection in
            try strings("SELECT DISTINCT split_part(substr(path, \(length) + 1), '/', 1) FROM shelf_documents WHERE path >= \(prefix) AND path < \(upper)", on: connection)
        }
    }

    /// The collections' ids, found by skipping through the index on parent paths (one index
    /// lookup per step) rather than reading every row: listing the root of a million documents
    /// takes milliseconds. The walk goes from a parent that is a collection ("a") to the next
    /// parent, and from one inside a collection's documents ("a/1/x") past all of them ("a0"):
    /// ids sort among their own subcollections ("a" < "a-b" < "a/1/x" < "a0"), so one may be
    /// met twice, hence the DISTINCT.
    func collectionIDs(under parent: String) throws -> [String] {
        let prefix = parent.isEmpty ? "" : parent + "/"
        var binds = PostgresBindings()
        binds.append(prefix)
        binds.append(Int32(prefix.unicodeScalars.count))  // PostgreSQL counts characters as code points
        if !prefix.isEmpty { binds.append(PostgresSelectionSQL.upperBound(ofPathsUnder: prefix)) }
        // The parents under `prefix` (all of them at the root).
        func within(_ column: String) -> String { prefix.isEmpty ? "" : " AND \(column) >= $1 AND \(column) < $3" }
        let sql = """
            WITH RECURSIVE walk(parent) AS (
                SELECT min(parent) FROM shelf_documents WHERE true\(within("parent"))
                UNION ALL
                SELECT CASE WHEN strpos(substr(w.parent, $2 + 1), '/') = 0
                    THEN (SELECT min(d.parent) FROM shelf_documents d WHERE d.parent > w.parent\(within("d.parent")))
                    ELSE (SELECT min(d.parent) FROM shelf_documents d
                          WHERE d.parent >= $1 || split_part(substr(w.parent, $2 + 1), '/', 1) || '0'\(within("d.parent")))
                    END
                FROM walk w WHERE w.parent IS NOT NULL
            )
            SELECT DISTINCT split_part(substr(parent, $2 + 1), '/', 1) FROM walk WHERE parent IS NOT NULL
            """
        return try withConnection(doing: "list collections in") { connection in
            try strings(PostgresQuery(unsafeSQL: sql, binds: binds), on: connection)
        }.sorted()
    }

    /// The ids of the collection's documents that have collections below them, found by skipping
    /// through the index on parent paths as `collectionIDs` does: from the first parent inside the
    /// collection's documents ("books/dune/reviews") past every parent of that document
    /// ("books/dune0"), one index lookup a document that has any; none for the others, where
    /// asking each document would make a query for every one (a million for a million books).
    func idsWithCollections(in collection: ResourcePath) throws -> [String] {
        let prefix = collection.description + "/"
        var binds = PostgresBindings()
        binds.append(prefix)
        binds.append(Int32(prefix.unicodeScalars.count))  // PostgreSQL counts characters as code points
        binds.append(PostgresSelectionSQL.upperBound(ofPathsUnder: prefix))
        let sql = """
            WITH RECURSIVE walk(parent) AS (
                SELECT min(parent) FROM shelf_documents WHERE parent >= $1 AND parent < $3
                UNION ALL
                SELECT (SELECT min(d.parent) FROM shelf_documents d
                        WHERE d.parent >= $1 || split_part(substr(w.parent, $2 + 1), '/', 1) || '0' AND d.parent < $3)
                FROM walk w WHERE w.parent IS NOT NULL
            )
            SELECT id FROM (SELECT split_part(substr(parent, $2 + 1), '/', 1) AS id FROM walk WHERE parent IS NOT NULL) AS ids
            ORDER BY id COLLATE "C"
            """
        return try withConnection(doing: "list the documents with collections of \(collection) in") { connection in
            try strings(PostgresQuery(unsafeSQL: sql, binds: binds), on: connection)
        }
    }

    private func strings(_ query: PostgresQuery, on connection: PostgresConnection) throws -> [String] {
        try PostgresQueries(connection: connection, logger: logger).rows(query).map { try $0.decode(String.self) }
    }

    // MARK: Writing

    func transact(locking paths: [String], _ body: ([ServerDocument], Timestamp) throws -> [ServerDocument]) throws -> [String: DocumentTimes] {
        try withConnection(doing: "commit to", retry: false) { connection in
            var attempt = 1
            while true {
                do {
                    return try transactOnce(connection, locking: paths, body)
                } catch where PostgresFailure.sqlState(error).map(PostgresFailure.retryableStates.contains) == true && attempt < Self.commitAttempts {
                    attempt += 1
                }
            }
        }
    }

    /// One attempt: lock the paths (advisory locks, taken in one order so two commits never
    /// wait for each other in a circle), read them, write what `body` makes of them.
    private func transactOnce(_ connection: PostgresConnection, locking paths: [String],
                              _ body: ([ServerDocument], Timestamp) throws -> [ServerDocument]) throws -> [String: DocumentTimes] {
        let queries = PostgresQueries(connection: connection, logger: logger)
        func run(_ query: PostgresQuery) throws { try queries.rows(query) }
        var written: [String: DocumentTimes] = [:]
        /// Runs an INSERT that returns `Self.returnedTimes`, keeping the times it gave.
        func insert(_ query: PostgresQuery) throws {
            for row in try queries.rows(query) {
                let (path, created, updated) = try row.decode((String, Int64, Int64).self)
                written[path] = Self.times(created: created, updated: updated)
            }
        }
        try run("BEGIN")
        do {
            // shelf.writer: this commit announces its paths itself, at its end (see PostgresSchema);
            // shelf.keep_times: it gives its documents' times (below).
            try run("SELECT set_config('shelf.writer', 'on', true), set_config('shelf.keep_times', 'on', true), pg_advisory_xact_lock(key) FROM (SELECT DISTINCT hashtextextended(p, 0) AS key FROM unnest(\(paths)::text[]) AS p ORDER BY key) AS keys")
            let current = try queries.rows("""
                SELECT path, fields::text, \(unescaped: Self.timesColumns) FROM shelf_documents WHERE path = ANY(\(paths))
                """).map { row in
                let (path, json, created, updated) = try row.decode((String, String, Int64, Int64).self)
                return ServerDocument(path: path, json: PostgresNulEscape.original(json: json),
                                      times: Self.times(created: created, updated: updated))
            }
            let time = CommitClock.next()
            let changes = try body(current, time)
            let deleted = changes.filter { $0.json == nil }.map(\.path)
            if !deleted.isEmpty {
                // The time the trigger keeps the deleted versions with (migration 12).
                try run("SELECT set_config('shelf.commit_time', \(time.rfc3339), true)")
                try run("DELETE FROM shelf_documents WHERE path = ANY(\(deleted))")
            }
            // Times given, as `shelf.keep_times` lets a commit give them (migration 6's trigger
            // stamps those of other writers): the commit's, the create time of a document
            // replaced kept, and an update time past the document's own should that be as late.
            let stamped = changes.filter { $0.json != nil && $0.times == nil }
            if !stamped.isEmpty {
                let (paths, parents, collectionIDs) = Self.places(stamped)
                try insert("""
                    INSERT INTO shelf_documents AS d (path, parent, collection_id, fields, create_time, update_time)
                    SELECT path, parent, collection_id, fields::jsonb, \(time.rfc3339)::timestamptz, \(time.rfc3339)::timestamptz
                    FROM unnest(\(paths)::text[], \(parents)::text[], \(collectionIDs)::text[], \(stamped.map { PostgresNulEscape.storable(json: $0.json!) })::text[]) AS w(path, parent, collection_id, fields)
                    ON CONFLICT (path) DO UPDATE SET fields = excluded.fields, create_time = d.create_time,
                        update_time = greatest(excluded.update_time, d.update_time + interval '1 microsecond')
                    RETURNING path, \(unescaped: Self.timesColumns)
                    """)
            }
            let kept = changes.filter { $0.json != nil && $0.times != nil }
            if !kept.isEmpty {
                let (paths, parents, collectionIDs) = Self.places(kept)
                let created = kept.map { $0.times!.created.rfc3339 }, updated = kept.map { $0.times!.updated.rfc3339 }
                try insert("""
                    INSERT INTO shelf_documents AS d (path, parent, collection_id, fields, create_time, update_time)
                    SELECT path, parent, collection_id, fields::jsonb, created::timestamptz, updated::timestamptz
                    FROM unnest(\(paths)::text[], \(parents)::text[], \(collectionIDs)::text[], \(kept.map { PostgresNulEscape.storable(json: $0.json!) })::text[], \(created)::text[], \(updated)::text[])
                        AS w(path, parent, collection_id, fields, created, updated)
                    ON CONFLICT (path) DO UPDATE SET fields = excluded.fields, create_time = excluded.create_time, update_time = excluded.update_time
                    RETURNING path, \(unescaped: Self.timesColumns)
                    """)
            }
            if !changes.isEmpty { try run("SELECT pg_notify(\(PostgresSchema.channel), \(PostgresChanges.payload(writer: self.changes.writer, paths: changes.map(\.path))))") }
            try run("COMMIT")
            return written
        } catch {
            if !connection.isClosed { try? run("ROLLBACK") }
            throw error
        }
    }

    /// The documents' paths, their parents' and their collections' ids, as the table keeps them.
    private static func places(_ documents: [ServerDocument]) -> (paths: [String], parents: [String], collectionIDs: [String]) {
        let paths = documents.map(\.path)
        let parents = paths.map { path in String(path[..<path.lastIndex(of: "/")!]) }
        return (paths, parents, parents.map { parent in String(parent.split(separator: "/").last!) })
    }

    // MARK: Listening

    func observe(_ changed: @escaping @Sendable ([String]?) -> Void) -> ServerObservation {
        changes.observe(changed)
    }

    func close() {
        orderIndexes.close()
        advisoryLocks.close()
        pool.close()
        changes.stop()
    }

    deinit { close() }
}

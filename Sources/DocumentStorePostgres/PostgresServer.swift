import DocumentStore
import Foundation
import PostgresNIO

/// A store's documents in a PostgreSQL database (see `PostgresSchema`), through PostgresNIO.
///
/// Calls come from any thread and block until the server answers; they share one connection,
/// one at a time, opened on first use and opened again after it drops. Listeners get their own
/// connection (`PostgresChanges`).
final class PostgresServer: DocumentServer, @unchecked Sendable {
    let address: PostgresAddress
    let logger: Logger
    private let lock = NSLock()
    private var connection: PostgresConnection?  // under `lock`
    private var isClosed = false                // under `lock`
    /// The order indexes this client has made sure of, as SQL (under `lock`).
    private var orderIndexes: Set<String> = []
    private let changes: PostgresChanges
    /// How many times a commit is tried when the server reports a serialization failure or a
    /// deadlock before `.aborted` is returned (a transaction's caller then runs its block again).
    static let commitAttempts = 5

    init(url: URL) throws {
        address = try PostgresAddress(url: url)
        var logger = Logger(label: "DocumentStorePostgres")
        logger.logLevel = .critical
        self.logger = logger
        changes = PostgresChanges(address: address, logger: logger)
        // Connect now, so a wrong address or password is said when the store is opened.
        try withConnection(doing: "open the store at") { connection in
            try PostgresSchema.migrate(connection, logger: logger)
        }
    }

    var description: String { address.description }

    static func connect(_ address: PostgresAddress, logger: Logger) throws -> PostgresConnection {
        let id = Int.random(in: 0..<Int.max)
        return try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                              configuration: address.configuration, id: id, logger: logger).wait()
    }

    /// Runs `body` on the shared connection, connecting first if needed. A connection lost
    /// before `body` could finish is dropped, and `body` runs once more on a new one when
    /// `retry`; errors come back as `FirestoreErrorCode`s naming the server.
    private func withConnection<T>(doing operation: String, retry: Bool = true, _ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        var attempt = 0
        while true {
            attempt += 1
            do {
                if isClosed { throw FirestoreErrorCode(.failedPrecondition, saying: "the store at \(description) was closed") }
                if connection == nil || connection!.isClosed { connection = try Self.connect(address, logger: logger) }
                return try body(connection!)
            } catch {
                if PostgresFailure.isConnectionLost(error) || connection?.isClosed == true {
                    try? connection?.close().wait()
                    connection = nil
                    if retry && attempt == 1 { continue }
                }
                throw PostgresFailure.error(error, server: description, doing: operation)
            }
        }
    }

    private func documents(_ query: PostgresQuery, on connection: PostgresConnection) throws -> [ServerDocument] {
        try PostgresQueries(connection: connection, logger: logger).rows(query).map { row in
            let (path, json) = try row.decode((String, String).self)
            return ServerDocument(path: path, json: json)
        }
    }

    // MARK: Reading

    func read(_ paths: [String]) throws -> [ServerDocument] {
        try withConnection(doing: "read documents from") { connection in
            try documents("SELECT path, fields::text FROM shelf_documents WHERE path = ANY(\(paths))", on: connection)
        }
    }

    func readCollection(_ collection: String, containing: String?) throws -> [ServerDocument] {
        try withConnection(doing: "read the collection \(collection) from") { connection in
            if let containing {
                return try documents("SELECT path, fields::text FROM shelf_documents WHERE parent = \(collection) AND fields @> \(containing)::jsonb", on: connection)
            }
            return try documents("SELECT path, fields::text FROM shelf_documents WHERE parent = \(collection)", on: connection)
        }
    }

    func readGroup(_ collectionID: String, containing: String?) throws -> [ServerDocument] {
        try withConnection(doing: "read the collection group \(collectionID) from") { connection in
            if let containing {
                return try documents("SELECT path, fields::text FROM shelf_documents WHERE collection_id = \(collectionID) AND fields @> \(containing)::jsonb", on: connection)
            }
            return try documents("SELECT path, fields::text FROM shelf_documents WHERE collection_id = \(collectionID)", on: connection)
        }
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
        return try withConnection(doing: "read a page of \(page.selection.collection) from") { connection in
            // The first page ordered by some fields makes their index (once per database; writers
            // wait while it is built). Failing to is only slower: another client may be making it.
            if let index = PostgresPageQuery.orderIndex(page), !orderIndexes.contains(index) {
                _ = try? PostgresQueries(connection: connection, logger: logger).rows(PostgresQuery(unsafeSQL: index))
                orderIndexes.insert(index)
            }
            return try documents(query, on: connection)
        }
    }

    func count(_ selection: ServerSelection) throws -> Int {
        var sql = PostgresSelectionSQL()
        let query = PostgresQuery(unsafeSQL: "SELECT count(*) FROM shelf_documents WHERE \(sql.conditions(selection))", binds: sql.binds)
        return try withConnection(doing: "count the documents of \(selection.collection) in") { connection in
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
        return try withConnection(doing: "list the documents of \(collection) in") { connection in
            try strings("SELECT DISTINCT split_part(substr(path, \(length) + 1), '/', 1) FROM shelf_documents WHERE left(path, \(length)) = \(prefix)", on: connection)
        }
    }

    func collectionIDs(under parent: String) throws -> [String] {
        let prefix = parent.isEmpty ? "" : parent + "/"
        let length = Int32(prefix.unicodeScalars.count)
        return try withConnection(doing: "list collections in") { connection in
            try strings("SELECT DISTINCT split_part(substr(parent, \(length) + 1), '/', 1) FROM shelf_documents WHERE left(parent, \(length)) = \(prefix)", on: connection)
        }.sorted()
    }

    private func strings(_ query: PostgresQuery, on connection: PostgresConnection) throws -> [String] {
        try PostgresQueries(connection: connection, logger: logger).rows(query).map { try $0.decode(String.self) }
    }

    // MARK: Writing

    func transact(locking paths: [String], _ body: ([ServerDocument]) throws -> [ServerDocument]) throws {
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
                              _ body: ([ServerDocument]) throws -> [ServerDocument]) throws {
        let queries = PostgresQueries(connection: connection, logger: logger)
        func run(_ query: PostgresQuery) throws { try queries.rows(query) }
        try run("BEGIN")
        do {
            // shelf.writer: this commit announces its paths itself, at its end (see PostgresSchema).
            try run("SELECT set_config('shelf.writer', 'on', true), pg_advisory_xact_lock(key) FROM (SELECT DISTINCT hashtextextended(p, 0) AS key FROM unnest(\(paths)::text[]) AS p ORDER BY key) AS keys")
            let current = try documents("SELECT path, fields::text FROM shelf_documents WHERE path = ANY(\(paths))", on: connection)
            let changes = try body(current)
            let deleted = changes.filter { $0.json == nil }.map(\.path)
            let written = changes.filter { $0.json != nil }
            if !deleted.isEmpty {
                try run("DELETE FROM shelf_documents WHERE path = ANY(\(deleted))")
            }
            if !written.isEmpty {
                let paths = written.map(\.path)
                let parents = paths.map { path in String(path[..<path.lastIndex(of: "/")!]) }
                let collectionIDs = parents.map { parent in String(parent.split(separator: "/").last!) }
                let fields = written.map { $0.json! }
                try run("""
                    INSERT INTO shelf_documents AS d (path, parent, collection_id, fields)
                    SELECT path, parent, collection_id, fields::jsonb
                    FROM unnest(\(paths)::text[], \(parents)::text[], \(collectionIDs)::text[], \(fields)::text[]) AS w(path, parent, collection_id, fields)
                    ON CONFLICT (path) DO UPDATE SET fields = excluded.fields, update_time = clock_timestamp()
                    """)
            }
            if !changes.isEmpty { try run("SELECT pg_notify(\(PostgresSchema.channel), \(PostgresChanges.payload(writer: self.changes.writer, paths: changes.map(\.path))))") }
            try run("COMMIT")
        } catch {
            if !connection.isClosed { try? run("ROLLBACK") }
            throw error
        }
    }

    // MARK: Listening

    func observe(_ changed: @escaping @Sendable ([String]?) -> Void) -> ServerObservation {
        changes.observe(changed)
    }

    func close() {
        lock.lock()
        isClosed = true
        let connection = connection
        self.connection = nil
        lock.unlock()
        try? connection?.close().wait()
        changes.stop()
    }

    deinit { close() }
}

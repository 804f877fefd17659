@testable import DocumentStore
import Foundation
import XCTest

/// A store on a fresh PostgreSQL database (see `TemporaryStore` and `PostgresCluster`), and
/// more clients of the same database: other stores, standing for other machines.
class PostgresTestCase: StoreTestCase {
    private var others: [Firestore] = []

    var cluster: PostgresCluster { get throws { try PostgresCluster.shared() } }
    var database: String { store.database! }

    /// Another store on the same database, closed in tearDown.
    func anotherClient() throws -> Firestore {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "PostgresTests.other")
        let other = try Firestore(url: try cluster.url(database: database), settings: settings)
        others.append(other)
        return other
    }

    override func tearDown() {
        for other in others { other.backend.close() }
        others = []
        super.tearDown()
    }

    /// Writes `count` books (`books/b00000`…, each with `n` its number) as another SQL client
    /// would: one statement, faster than `count` writes.
    func insertBooks(_ count: Int) throws {
        try sql("""
            INSERT INTO shelf_documents (path, parent, collection_id, fields)
            SELECT 'books/b' || lpad(i::text, 5, '0'), 'books', 'books', jsonb_build_object('n', i)
            FROM generate_series(0, \(count - 1)) AS i
            """)
    }

    /// Another session holding the documents' table (in `mode`, which pg_locks calls `lock`),
    /// so that a read waits on the server until this session ends (`terminate()`, or
    /// `pg_terminate_backend` of the session sleeping).
    func holdTheTable(mode: String = "ACCESS EXCLUSIVE", lock: String = "AccessExclusiveLock") throws -> Process {
        let cluster = try cluster
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: try PostgresCluster.tool("psql"))
        holder.arguments = ["-X", "-q", "-h", cluster.host, "-p", "\(cluster.port)", "-U", cluster.user, "-d", database,
                            "-c", "BEGIN", "-c", "LOCK TABLE shelf_documents IN \(mode) MODE", "-c", "SELECT pg_sleep(60)"]
        holder.environment = ["PGPASSWORD": cluster.password]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        try awaitSQL("SELECT count(*) FROM pg_locks WHERE relation = 'shelf_documents'::regclass AND mode = '\(lock)' AND granted", "1")
        return holder
    }

    func awaitSQL(_ query: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try sql(query) != expected {
            guard ContinuousClock.now < deadline else { return XCTFail("waited 10 s for \(query) to be \(expected)", file: file, line: line) }
            usleep(10_000)
        }
    }

    /// Runs SQL on the store's database with psql; its output, trimmed.
    @discardableResult
    func sql(_ text: String) throws -> String {
        try cluster.psql(text, database: database).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

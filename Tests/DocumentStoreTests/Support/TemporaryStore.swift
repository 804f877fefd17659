@testable import DocumentStore
#if SHELF_POSTGRES_TESTS
@testable import DocumentStorePostgres
#endif
#if SHELF_REMOTE_TESTS
import DocumentStoreRemote
#endif
import Foundation
import XCTest

/// A store on a fresh folder under the temporary directory, removed by `remove()`.
///
/// Layout: `<scratch>/data` is the store's folder; `<scratch>/outside` is a folder next to it
/// that the store must never touch (for the symbolic link tests).
final class TemporaryStore {
    let scratch: URL
    let root: URL
    let outside: URL
    /// Where the store's callbacks run: private and serial, so tests never need the main queue.
    let callbackQueue = DispatchQueue(label: "DocumentStoreTests.callbacks")
    let db: Firestore
    /// The store's own database when the tests run on PostgreSQL (DocumentStorePostgresTests).
    private(set) var database: String?
    #if SHELF_REMOTE_TESTS
    /// The `shelf serve` on the folder that the store is a client of (DocumentStoreRemoteTests).
    private(set) var served: ServedFolder?
    #endif

    init(pollingInterval: TimeInterval = 0.05) throws {
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("DocumentStoreTests-\(UUID().uuidString)", isDirectory: true)
        root = scratch.appendingPathComponent("data", isDirectory: true)
        outside = scratch.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let settings = FirestoreSettings()
        settings.dispatchQueue = callbackQueue
        settings.pollingInterval = pollingInterval
        settings.snapshotFolder = scratch.appendingPathComponent("cache")  // not the user's
        #if SHELF_POSTGRES_TESTS
        Firestore.enablePostgreSQL()
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase()
        self.database = database
        db = try Firestore(url: cluster.url(database: database), settings: settings)
        #elseif SHELF_REMOTE_TESTS
        Firestore.enableFirestoreServers()
        let served = try ServedFolder(root: root, pollingInterval: pollingInterval)
        self.served = served
        db = try Firestore(url: served.url, settings: settings)
        #else
        db = try Firestore(directory: root, settings: settings)
        #endif
    }

    /// Another store on the same documents (the same folder, or the same database), as a
    /// second program would open it: no listener, nothing shared with `db`.
    func openAnother() throws -> Firestore {
        #if SHELF_POSTGRES_TESTS
        return try Firestore(url: PostgresCluster.shared().url(database: database!))
        #elseif SHELF_REMOTE_TESTS
        return try Firestore(url: served!.url)
        #else
        return try Firestore(directory: root)
        #endif
    }

    func remove() {
        try? FileManager.default.removeItem(at: scratch)
        #if SHELF_POSTGRES_TESTS
        db.backend.close()
        if let database, let cluster = try? PostgresCluster.shared() {
            cluster.dropDatabase(database)
            // The named databases beside it (`Firestore.firestore(app:database:)`).
            let named = (try? cluster.psql("SELECT datname FROM pg_database WHERE starts_with(datname, '\(database)__')")) ?? ""
            for name in named.split(separator: "\n") { cluster.dropDatabase(String(name)) }
        }
        #endif
        #if SHELF_REMOTE_TESTS
        db.backend.close()
        served?.stop()
        #endif
    }

    /// Where another program opens the store: the folder's path, or the database's URL.
    var location: String {
        #if SHELF_POSTGRES_TESTS
        if let database, let cluster = try? PostgresCluster.shared() { return cluster.url(database: database).absoluteString }
        #endif
        #if SHELF_REMOTE_TESTS
        if let served { return served.url.absoluteString }
        #endif
        return root.path
    }

    /// The absolute path of `relative` inside the store's folder.
    func path(_ relative: String) -> String { root.path + "/" + relative }

    /// Writes a file as a script or an editor would: a temporary file outside the store's
    /// folder, renamed into place (so a listener never sees it half written).
    func writeFile(_ relative: String, _ text: String) throws {
        try writeFile(relative, bytes: Array(text.utf8))
    }

    func writeFile(_ relative: String, bytes: [UInt8]) throws {
        #if SHELF_POSTGRES_TESTS
        // On PostgreSQL, "another program" is another client writing the row with SQL.
        if relative.hasSuffix(".json"), let database {
            let path = String(relative.dropLast(5))
            let parent = String(path[..<path.lastIndex(of: "/")!])
            let sql = """
                INSERT INTO shelf_documents (path, parent, collection_id, fields)
                VALUES ($shelf$\(path)$shelf$, $shelf$\(parent)$shelf$, $shelf$\(parent.split(separator: "/").last!)$shelf$,
                        $shelf$\(String(decoding: bytes, as: UTF8.self))$shelf$::jsonb)
                ON CONFLICT (path) DO UPDATE SET fields = excluded.fields
                """
            try PostgresCluster.shared().psql(sql, database: database)
            return
        }
        #endif
        let target = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = scratch.appendingPathComponent("editor-\(UUID().uuidString).tmp")
        try Data(bytes).write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            throw POSIXFailure(call: "rename", path: target.path, code: errno)
        }
    }

    /// Overwrites the start of an existing file in place: same inode, no rename, as an editor
    /// that saves in place does.
    func overwriteInPlace(_ relative: String, with text: String) throws {
        let fd = open(path(relative), O_WRONLY)
        guard fd >= 0 else { throw POSIXFailure(call: "open", path: path(relative), code: errno) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { throw POSIXFailure(call: "pwrite", path: path(relative), code: errno) }
    }

    func deleteFile(_ relative: String) throws {
        #if SHELF_POSTGRES_TESTS
        if relative.hasSuffix(".json"), let database {
            try PostgresCluster.shared().psql("DELETE FROM shelf_documents WHERE path = $shelf$\(relative.dropLast(5))$shelf$", database: database)
            return
        }
        #endif
        guard unlink(path(relative)) == 0 else { throw POSIXFailure(call: "unlink", path: path(relative), code: errno) }
    }

    /// Runs `body` on the queue of the watcher that reads the collection's folder (the store's
    /// own, or through a server the server's), so that it looks at none of `body`'s changes
    /// before all of them are made: they land in one look, however slowly they are made.
    /// Not on PostgreSQL, where notifications arrive when they will.
    func holdingWatcher<T>(of collection: String, _ body: () throws -> T) throws -> T {
        try watcher(following: collection).queue.sync(execute: body)
    }

    /// Returns once the watcher following `path` (a collection or a document; the store's own,
    /// or through a server the server's) has looked `count` more times and the store's
    /// callbacks queued by then have run: ticks that deliver nothing are shown by their number,
    /// not by a time that a loaded machine may not reach.
    func waitForLooks(at path: String, _ count: Int = 3, file: StaticString = #filePath, line: UInt = #line) throws {
        let watcher = try watcher(following: path)
        let target = watcher.looks.withLock { $0 } + count
        let deadline = Date(timeIntervalSinceNow: 30)
        while watcher.looks.withLock({ $0 }) < target {
            guard Date() < deadline else { return XCTFail("\(path) was never looked at \(count) more times", file: file, line: line) }
            usleep(2_000)
        }
        drainCallbacks()
    }

    private func watcher(following path: String) throws -> Watcher {
        #if SHELF_REMOTE_TESTS
        let store = served!.store
        #else
        let store = db
        #endif
        let resource = ResourcePath(segments: path.split(separator: "/").map(String.init))
        let key: Firestore.WatchKey = resource.segments.count % 2 == 1 ? .collection(resource) : .document(resource)
        return try XCTUnwrap(store.activeWatcher(key), "no listener follows \(path)")
    }

    /// The file's text, or nil when it does not exist.
    func readFile(_ relative: String) -> String? {
        #if SHELF_POSTGRES_TESTS
        // On PostgreSQL: the document's row, written out as the folder backend writes its file.
        if relative.hasSuffix(".json"), let database {
            let path = String(relative.dropLast(5))
            guard let text = try? PostgresCluster.shared().psql("SELECT fields::text FROM shelf_documents WHERE path = $shelf$\(path)$shelf$", database: database),
                  case .fields(let fields) = DocumentText.document(text.trimmingCharacters(in: .newlines), store: db) else { return nil }
            return String(decoding: JSONWriter.documentBytes(DocumentJSON.json(fields)), as: UTF8.self)
        }
        #endif
        guard let data = FileManager.default.contents(atPath: path(relative)) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    func readBytes(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relative)).map { Array($0) }
    }

    /// The file's inode and size, from lstat.
    func fileStatus(_ relative: String) throws -> (inode: UInt64, size: Int) {
        var status = stat()
        guard lstat(path(relative), &status) == 0 else { throw POSIXFailure(call: "lstat", path: path(relative), code: errno) }
        return (UInt64(status.st_ino), Int(status.st_size))
    }

    /// Every name in a folder of the store, hidden ones included, sorted (on PostgreSQL: the
    /// collection's documents, named as their files would be).
    func fileNames(in relative: String) -> [String] {
        #if SHELF_POSTGRES_TESTS
        if let database {
            let paths = (try? PostgresCluster.shared().psql("SELECT path FROM shelf_documents WHERE parent = $shelf$\(relative)$shelf$", database: database)) ?? ""
            return paths.split(separator: "\n").map { $0.split(separator: "/").last! + ".json" }.sorted()
        }
        #endif
        return ((try? FileManager.default.contentsOfDirectory(atPath: path(relative))) ?? []).sorted()
    }

    /// Waits until every callback already queued on the store's callback queue has run.
    func drainCallbacks() { callbackQueue.sync {} }
}

struct POSIXFailure: Error, CustomStringConvertible {
    let call: String
    let path: String
    let code: Int32
    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}

/// A test case with a fresh store for each test, removed in tearDown along with any listener
/// the test left registered.
class StoreTestCase: XCTestCase {
    private(set) var store: TemporaryStore!
    var db: Firestore { store.db }
    private var registrations: [ListenerRegistration] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try TemporaryStore()
    }

    override func tearDown() {
        for registration in registrations { registration.remove() }
        registrations = []
        store?.drainCallbacks()
        store?.remove()
        store = nil
        super.tearDown()
    }

    /// Keeps `registration` to remove it in tearDown if the test does not.
    @discardableResult
    func track(_ registration: ListenerRegistration) -> ListenerRegistration {
        registrations.append(registration)
        return registration
    }
}

@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation

/// A database server in memory that can be taken down, for the app's offline state: opened as
/// `memory://…` URLs (`open()`), it holds documents as a server does, tells observers of each
/// commit, and while `isDown` every call fails as an unreachable PostgreSQL server's does
/// (`.unavailable`, the reason in `NSLocalizedFailureReasonErrorKey`). Coming back tells
/// observers that anything may have changed, as a listener that reconnects is told.
final class MemoryServer: DocumentServer, @unchecked Sendable {
    let description: String
    private let lock = NSLock()
    private var documents: [String: String] = [:]  // path: JSON text; under `lock`
    private var observers: [ObjectIdentifier: @Sendable ([String]?) -> Void] = [:]
    private var down = false
    /// For tests: how many counts were of whole selections, and how many of pages.
    private(set) var selectionsCounted = 0
    private(set) var pagesCounted = 0
    /// For tests: the fields of each order prepared (`prepareOrder`), in the order asked.
    private(set) var ordersPrepared: [[[String]]] = []

    private init(description: String) { self.description = description }

    private static let servers = Locked<[String: MemoryServer]>([:])

    /// A new server holding `documents` (path: JSON text), and a store on it.
    static func open(_ documents: [String: String]) throws -> (MemoryServer, Firestore) {
        ServerSchemes.register(["memory"]) { url in
            guard let server = servers.withLock({ $0[url.absoluteString] }) else { throw FirestoreErrorCode(.notFound, "no \(url)") }
            return server
        }
        let url = "memory://shelf@127.0.0.1:5432/shelf_\(UUID().uuidString.prefix(8).lowercased())"
        let server = MemoryServer(description: url)
        server.documents = documents
        servers.withLock { $0[url] = server }
        let settings = FirestoreSettings()
        return (server, try Firestore(url: URL(string: url)!, settings: settings))
    }

    var isDown: Bool {
        get { lock.withLock { down } }
        set {
            let observers = lock.withLock { () -> [@Sendable ([String]?) -> Void] in
                down = newValue
                return Array(self.observers.values)
            }
            if !newValue { for observer in observers { observer(nil) } }
        }
    }

    /// Runs `body` on the documents, unless the server is down.
    private func answer<T>(_ operation: String, _ body: (inout [String: String]) throws -> T) throws -> T {
        try lock.withLock {
            guard !down else {
                throw FirestoreErrorCode(.unavailable, userInfo: [NSLocalizedDescriptionKey: "cannot \(operation) \(description): Connection refused",
                                                                 NSLocalizedFailureReasonErrorKey: "Connection refused"])
            }
            return try body(&documents)
        }
    }

    func prepareOrder(_ page: ServerPage) { lock.withLock { ordersPrepared.append(page.fields) } }

    private static func parent(_ path: String) -> String { String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }

    private func found(_ documents: [String: String], where include: (String) -> Bool) -> [ServerDocument] {
        documents.filter { include($0.key) }.map { ServerDocument(path: $0.key, json: $0.value) }
    }

    func read(_ paths: [String]) throws -> [ServerDocument] {
        try answer("read documents from") { documents in found(documents) { paths.contains($0) } }
    }

    /// Every document was created and last written at the epoch: no test here looks at times.
    func times(_ paths: [String]) throws -> [String: DocumentTimes] {
        let epoch = Timestamp(seconds: 0, nanoseconds: 0)
        return Dictionary(uniqueKeysWithValues: try read(paths).map { ($0.path, DocumentTimes(created: epoch, updated: epoch)) })
    }

    /// The selection's documents; its conditions are left to the query engine (reading more
    /// than they match is allowed), so counting or adding up a selection with them is not.
    func read(_ selection: ServerSelection) throws -> [ServerDocument] {
        try answer("read \(selection.collection) from") { documents in
            found(documents) { path in
                let parent = Self.parent(path)
                return selection.isGroup ? parent.split(separator: "/").last.map(String.init) == selection.collection : parent == selection.collection
            }
        }
    }

    func readPage(_ page: ServerPage) throws -> [ServerDocument] {
        throw FirestoreErrorCode(.unimplemented, "pages are not served from memory")
    }

    /// Without cursors or conditions: the selection's documents after the offset, up to the limit.
    func count(_ page: ServerPage) throws -> Int {
        guard page.start == nil, page.end == nil, page.selection.conditions.isEmpty else {
            throw FirestoreErrorCode(.unimplemented, "pages with cursors or conditions are not counted in memory")
        }
        lock.withLock { pagesCounted += 1 }
        let after = max(0, try read(page.selection).count - page.offset)
        return page.limit.map { min($0, after) } ?? after
    }

    func readSlice(_ selection: ServerSelection, after: String?, limit: Int) throws -> [ServerDocument] {
        let sorted = try read(selection).sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return Array(sorted.filter { after == nil || after!.utf8.lexicographicallyPrecedes($0.path.utf8) }.prefix(limit))
    }

    func count(_ selection: ServerSelection) throws -> Int {
        guard selection.conditions.isEmpty else { throw FirestoreErrorCode(.unimplemented, "conditions are not counted in memory") }
        lock.withLock { selectionsCounted += 1 }
        return try read(selection).count
    }

    func sums(_ selection: ServerSelection, fields: [[String]]) throws -> ServerSums {
        throw FirestoreErrorCode(.unimplemented, "sums are not served from memory")
    }

    func documentIDs(in collection: String) throws -> [String] {
        try read(ServerSelection(collection: collection, isGroup: false, conditions: [])).map { String($0.path.split(separator: "/").last!) }
    }

    func collectionIDs(under parent: String) throws -> [String] {
        try answer("list collections in") { documents in
            Set(documents.keys.map(Self.parent).filter { Self.parent($0) == parent }.map { String($0.split(separator: "/").last!) }).sorted()
        }
    }

    func transact(locking paths: [String], _ body: ([ServerDocument], Timestamp) throws -> [ServerDocument]) throws -> [String: DocumentTimes] {
        let written = try answer("commit to") { documents in
            let changes = try body(found(documents) { paths.contains($0) }, CommitClock.next())
            for change in changes { documents[change.path] = change.json }
            return changes.map(\.path)
        }
        let observers = lock.withLock { Array(self.observers.values) }
        for observer in observers { observer(written) }
        return try times(written)
    }

    func observe(_ changed: @escaping @Sendable ([String]?) -> Void) -> ServerObservation {
        let observation = Observation(server: self)
        lock.withLock { observers[ObjectIdentifier(observation)] = changed }
        return observation
    }

    func close() {}

    private final class Observation: ServerObservation, @unchecked Sendable {
        weak var server: MemoryServer?
        init(server: MemoryServer) { self.server = server }
        func cancel() {
            guard let server else { return }
            server.lock.withLock { server.observers[ObjectIdentifier(self)] = nil }
        }

        /// Observing starts at once here.
        func waitUntilListening(timeout: TimeInterval) -> Bool { true }
    }
}

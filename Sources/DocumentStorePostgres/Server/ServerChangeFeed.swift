import DocumentStore
import Foundation

/// Follows a collection, a collection group, one document or a window of a collection (a query
/// with a limit) on a database server: the server names the paths each commit wrote
/// (`DocumentServer.observe`), and a look reads only those the watcher follows; a window is
/// run again when a path of its collection was written. When the server says changes may have
/// been missed (a dropped connection), and at the first look, it reads everything the watcher
/// follows, and the watcher keeps what is unchanged, so nothing is lost and nothing is `.added`
/// twice. A look that fails keeps what it had to do for the next one.
final class ServerChangeFeed: ChangeSource, @unchecked Sendable {
    private struct Pending {
        var everything = true
        var paths: [String] = []
    }

    private let server: DocumentServer
    private let key: Firestore.WatchKey
    private let pending = Locked(Pending())
    private var observation: ServerObservation?

    init(server: DocumentServer, key: Firestore.WatchKey) {
        self.server = server
        self.key = key
    }

    /// Called under the store's lock; `release`, on the watcher's queue, ends the observation.
    func start(wake: @escaping @Sendable () -> Void) {
        observation = server.observe { [weak self] paths in
            self?.note(paths)
            wake()
        }
    }

    func release() {
        observation?.cancel()
        observation = nil
    }

    func wrote(_ written: [WrittenDocument]) {
        note(written.map(\.path.description))
    }

    /// Remembers what changed (nil: anything may have).
    private func note(_ paths: [String]?) {
        pending.withLock { pending in
            if let paths { pending.paths += paths } else { pending.everything = true }
        }
    }

    func look(into documents: WatchedDocuments, for watcher: Watcher) throws {
        guard let firestore = watcher.firestore else { return }
        // A read of everything made before the changes are observed would be made again as
        // soon as they are (they may have been missed meanwhile): wait for that first.
        if pending.withLock({ $0.everything }) { _ = observation?.waitUntilListening(timeout: Self.listeningWait) }
        let taken = pending.withLock { pending in
            defer { pending = Pending(everything: false) }
            return pending
        }
        do {
            if case .query(let definition) = key {
                if taken.everything || taken.paths.contains(where: follows) { try run(definition, documents, firestore) }
                return
            }
            if taken.everything { return try readAll(documents, watcher, firestore) }
            try read(Set(taken.paths.filter(follows).map { ExactID($0) }), documents, firestore)
        } catch {
            pending.withLock { pending in
                pending.everything = pending.everything || taken.everything
                pending.paths += taken.paths
            }
            throw error
        }
    }

    /// Is the document at `path` one this watcher follows?
    private func follows(_ path: String) -> Bool {
        let segments = ResourcePath(stored: path).segments
        switch key.broadened {
        case .document(let document): return ResourcePath(segments: segments) == document
        case .collection(let collection): return ResourcePath(segments: segments.dropLast()) == collection
        case .collectionGroup(let id): return segments.count >= 2 && UTF8Bytes.equal(segments[segments.count - 2], id)
        case .query: return false  // a broadened key is never a query
        }
    }

    /// Runs the window's query and hands over its documents: those that left it are removed.
    private func run(_ definition: QueryDefinition, _ documents: WatchedDocuments, _ firestore: Firestore) throws {
        var kept: Set<ExactID> = []
        for snapshot in try server.results(of: Query(firestore: firestore, definition: definition, invalid: nil)) {
            let path = snapshot.reference.resourcePath
            let id = key.tableKey(of: path)
            kept.insert(id)
            _ = documents.take(id, snapshot.stored) { snapshot }
        }
        documents.removeAll(except: kept)
    }

    /// Reads everything the watcher follows and hands it over, then removes what is gone. A collection or
    /// group is read in slices by path, so other calls on the connection come between them and
    /// listeners awaiting their first snapshot are told of each slice (`LoadProgress`); commits
    /// announced while it reads are read again at the end, so the first snapshot holds them whole.
    private func readAll(_ documents: WatchedDocuments, _ watcher: Watcher, _ firestore: Firestore) throws {
        let selection: ServerSelection
        switch key {
        case .document(let path): return try read([ExactID(path.description)], documents, firestore)
        case .collection(let path): selection = ServerSelection(collection: path.description, isGroup: false, conditions: [])
        case .collectionGroup(let id): selection = ServerSelection(collection: id, isGroup: true, conditions: [])
        case .query(let definition): selection = ServerSelection(definition.source, conditions: [])
        }
        var seen: Set<ExactID> = []
        var after: String?
        var total: Int?
        var limit = Self.firstSlice
        var scratch = DocumentParser.Scratch()
        while true {
            let slice = try server.readSlice(selection, after: after, limit: limit)
            var read: [QueryDocumentSnapshot] = []
            read.reserveCapacity(slice.count)
            for document in slice {
                let path = ResourcePath(stored: document.path)
                let id = key.tableKey(of: path)
                let stored = DocumentText.document(document.json, store: firestore, scratch: &scratch)
                seen.insert(id)
                if let snapshot = documents.take(id, stored, snapshot: { snapshot(path, stored, firestore) }) { read.append(snapshot) }
            }
            let isLast = slice.count < limit
            let fitsInOneSlice = isLast && after == nil
            if !fitsInOneSlice && watcher.isAwaitingFirstSnapshot {
                // The first slice is told at once, before the collection is counted (no total).
                if total == nil && after != nil { total = try server.count(selection) }
                if total ?? Watcher.worthReporting >= Watcher.worthReporting {
                    watcher.reportProgress(read: seen.count, total: isLast ? seen.count : total.map { max($0, seen.count) }, documents: read)
                }
            }
            Self.afterSlice?(self, seen.count)
            guard !isLast, let last = slice.last else { break }
            after = last.path
            limit = Self.slice
        }
        documents.removeAll(except: seen)
        try readAnnouncedMeanwhile(documents, firestore)
    }

    /// How long a read of everything waits for the changes to be observed, at most (a server
    /// that cannot be reached fails the read itself).
    static let listeningWait: TimeInterval = 2

    /// A large collection's first slice is small, so its first documents are shown soon.
    static let firstSlice = 1_024
    static let slice = 16_384
    /// For tests: called on the watcher's queue after each slice of a read of everything, with
    /// the documents read so far. Set once, before any listener starts.
    package nonisolated(unsafe) static var afterSlice: ((ServerChangeFeed, Int) -> Void)?

    /// For tests: the paths announced and not yet read.
    var announcedPaths: [String] { pending.withLock { $0.paths } }

    /// The paths announced since `scan` took its pending work, read now.
    private func readAnnouncedMeanwhile(_ documents: WatchedDocuments, _ firestore: Firestore) throws {
        let taken = pending.withLock { pending in
            defer { pending.paths = [] }
            return pending.everything ? [] : pending.paths
        }
        try read(Set(taken.filter(follows).map { ExactID($0) }), documents, firestore)
    }

    /// Reads the documents at these paths (by their exact bytes) and hands them over.
    private func read(_ paths: Set<ExactID>, _ documents: WatchedDocuments, _ firestore: Firestore) throws {
        guard !paths.isEmpty else { return }
        var found: [ExactID: StoredDocument] = [:]
        for document in try server.read(paths.map(\.text)) {
            found[ExactID(document.path)] = DocumentText.document(document.json, store: firestore)
        }
        for path in paths {
            let resourcePath = ResourcePath(stored: path.text)
            let stored = found[path] ?? .missing
            if case .document = key {
                documents.take(document: stored, at: DocumentReference(firestore: firestore, path: resourcePath))
            } else {
                documents.take(key.tableKey(of: resourcePath), stored) { snapshot(resourcePath, stored, firestore) }
            }
        }
    }

    private func snapshot(_ path: ResourcePath, _ stored: StoredDocument, _ firestore: Firestore) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path), stored: stored)
    }
}

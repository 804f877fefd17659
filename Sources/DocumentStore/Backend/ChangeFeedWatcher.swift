import Foundation

/// Follows a collection, a collection group or one document on a database server for its
/// listeners: the server names the paths each commit wrote (`DocumentServer.observe`), and a
/// look reads only those this watcher follows; when the server says changes may have been
/// missed (a dropped connection), and at the first look, it reads everything it follows and
/// diffs it with what it holds, so nothing is lost and nothing is `.added` twice. A look that
/// fails keeps what it had to do for the next tick.
final class ChangeFeedWatcher: Watcher, @unchecked Sendable {
    private struct Pending {
        var everything = true
        var paths: [String] = []
    }

    private let server: ServerBackend
    private let pending = Locked(Pending())
    private var observation: ServerObservation?
    /// Collections and groups: the documents, keyed as the folder watchers key them.
    private var documents: [ExactID: QueryDocumentSnapshot] = [:]
    /// A document listener's document.
    private var current: DocumentSnapshot?

    init(firestore: Firestore, key: Firestore.WatchKey, backend: ServerBackend) {
        server = backend
        super.init(firestore: firestore, key: key)
    }

    override func start(interval: TimeInterval) {
        super.start(interval: interval)
        observation = server.server.observe { [weak self] paths in self?.note(paths) }
    }

    override func release() {
        observation?.cancel()
        observation = nil
    }

    override func wrote(_ paths: [ResourcePath]) {
        note(paths.map(\.description))
    }

    /// Remembers what changed (nil: anything may have) and looks now.
    private func note(_ paths: [String]?) {
        pending.withLock { pending in
            if let paths { pending.paths += paths } else { pending.everything = true }
        }
        poll()
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? QuerySubscription)?.hasDelivered ?? (subscription as? DocumentSubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<ExactID>?) {
        if let current {
            (subscription as? DocumentSubscription)?.update(current)
        } else {
            (subscription as? QuerySubscription)?.update(documents: documents, changed: changed)
        }
    }

    override var currentDocuments: [QueryDocumentSnapshot] { Array(documents.values) }

    override func scan() throws -> Set<ExactID> {
        guard let firestore else { return [] }
        // A read of everything made before the changes are observed would be made again as
        // soon as they are (they may have been missed meanwhile): wait for that first.
        if pending.withLock({ $0.everything }) { _ = observation?.waitUntilListening(timeout: Self.listeningWait) }
        let taken = pending.withLock { pending in
            defer { pending = Pending(everything: false) }
            return pending
        }
        do {
            if taken.everything { return try readAll(firestore) }
            let paths = Set(taken.paths.filter(follows).map { ExactID($0) })
            return paths.isEmpty ? [] : try read(paths, firestore)
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
        let segments = ServerBackend.path(path).segments
        switch key.broadened {
        case .document(let document): return ResourcePath(segments: segments) == document
        case .collection(let collection): return ResourcePath(segments: segments.dropLast()) == collection
        case .collectionGroup(let id): return segments.count >= 2 && UTF8Bytes.equal(segments[segments.count - 2], id)
        case .query: return false  // a broadened key is never a query
        }
    }

    /// Reads everything this watcher follows and diffs it with what it holds. A collection or
    /// group is read in slices by path, so other calls on the connection come between them and
    /// listeners awaiting their first snapshot are told of each slice (`LoadProgress`); commits
    /// announced while it reads are read again at the end, so the first snapshot holds them whole.
    private func readAll(_ firestore: Firestore) throws -> Set<ExactID> {
        let selection: ServerSelection
        switch key {
        case .document(let path): return try read([ExactID(path.description)], firestore)
        case .collection(let path): selection = ServerSelection(collection: path.description, isGroup: false, conditions: [])
        case .collectionGroup(let id): selection = ServerSelection(collection: id, isGroup: true, conditions: [])
        case .query(let definition): selection = ServerSelection(definition.source, conditions: [])
        }
        var next: [ExactID: QueryDocumentSnapshot] = [:]
        var changed: Set<ExactID> = []
        var after: String?
        var total: Int?
        var limit = Self.firstSlice
        var scratch = DocumentParser.Scratch()
        while true {
            let slice = try server.server.readSlice(selection, after: after, limit: limit)
            var read: [QueryDocumentSnapshot] = []
            read.reserveCapacity(slice.count)
            for document in slice {
                let path = ServerBackend.path(document.path)
                let id = key.tableKey(of: path)
                var snapshot = snapshot(path, DocumentText.document(document.json, store: firestore, scratch: &scratch), firestore)
                if let old = documents[id], old.stored == snapshot.stored {
                    snapshot = old  // unchanged: the same snapshot, so listeners see no change
                } else {
                    changed.insert(id)
                }
                next[id] = snapshot
                read.append(snapshot)
            }
            let isLast = slice.count < limit
            let fitsInOneSlice = isLast && after == nil
            if !fitsInOneSlice && !awaitingFirstSnapshot.isEmpty {
                // The first slice is told at once, before the collection is counted (no total).
                if total == nil && after != nil { total = try server.server.count(selection) }
                if total ?? Watcher.worthReporting >= Watcher.worthReporting {
                    reportProgress(read: next.count, total: isLast ? next.count : total.map { max($0, next.count) }, documents: read)
                }
            }
            Self.afterSlice?(self, next.count)
            guard !isLast, let last = slice.last else { break }
            after = last.path
            limit = Self.slice
        }
        changed.formUnion(documents.keys.filter { next[$0] == nil })
        documents = next
        return changed.union(try readAnnouncedMeanwhile(firestore))
    }

    /// How long a read of everything waits for the changes to be observed, at most (a server
    /// that cannot be reached fails the read itself).
    static let listeningWait: TimeInterval = 2

    /// A large collection's first slice is small, so its first documents are shown soon.
    static let firstSlice = 1_024
    static let slice = 16_384
    /// For tests: called on the watcher's queue after each slice of a read of everything, with
    /// the documents read so far. Set once, before any listener starts.
    package nonisolated(unsafe) static var afterSlice: ((ChangeFeedWatcher, Int) -> Void)?

    /// For tests: the paths announced and not yet read.
    var announcedPaths: [String] { pending.withLock { $0.paths } }

    /// The paths announced since `scan` took its pending work, read now.
    private func readAnnouncedMeanwhile(_ firestore: Firestore) throws -> Set<ExactID> {
        let taken = pending.withLock { pending in
            defer { pending.paths = [] }
            return pending.everything ? [] : pending.paths
        }
        let paths = Set(taken.filter(follows).map { ExactID($0) })
        return paths.isEmpty ? [] : try read(paths, firestore)
    }

    /// Reads the documents at these paths (by their exact bytes) and updates what differs.
    private func read(_ paths: Set<ExactID>, _ firestore: Firestore) throws -> Set<ExactID> {
        var found: [ExactID: StoredDocument] = [:]
        for document in try server.server.read(paths.map(\.text)) {
            found[ExactID(document.path)] = DocumentText.document(document.json, store: firestore)
        }
        var changed: Set<ExactID> = []
        for path in paths {
            let resourcePath = ServerBackend.path(path.text)
            let stored = found[path] ?? .missing
            if case .document = key {
                guard current?.stored != stored else { continue }
                current = DocumentSnapshot(reference: DocumentReference(firestore: firestore, path: resourcePath), stored: stored)
                changed.insert(ExactID(resourcePath.last))
                continue
            }
            let id = key.tableKey(of: resourcePath)
            guard documents[id]?.stored != (stored == .missing ? nil : stored) else { continue }
            documents[id] = stored == .missing ? nil : snapshot(resourcePath, stored, firestore)
            changed.insert(id)
        }
        return changed
    }

    private func snapshot(_ path: ResourcePath, _ stored: StoredDocument, _ firestore: Firestore) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: DocumentReference(firestore: firestore, path: path), stored: stored)
    }
}

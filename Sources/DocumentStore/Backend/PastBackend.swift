import Foundation

/// A store's documents as they were at a past time, read-only: what it holds now, with the
/// versions its backend kept (`PastVersion`) put back. Every read of the API works on it
/// (gets, queries, aggregations, listings), so `shelf serve` answers a `read_time` with the
/// same code as a read now. Queries read their whole collection (or group) and evaluate in
/// memory; a past read holds only the versions of what it reads.
final class PastBackend: IDRestrictingStorage {
    /// The store as it is now, and its backend.
    private let now: Firestore
    private let backend: StorageBackend
    let time: Timestamp
    private var versioned: VersionedStorage? { backend as? VersionedStorage }

    init(_ now: Firestore, at time: Timestamp) {
        self.now = now
        backend = now.backend
        self.time = time
    }

    var description: String { backend.description }
    var isReadOnly: Bool { true }
    var idRules: IDRules { (backend as? IDRestrictingStorage)?.idRules ?? .firestore }

    /// The versions of `scope` replaced after `time`, by path; read after what is current, so
    /// that a commit in between is seen in one or the other.
    private func versions(_ scope: VersionScope) throws -> [ResourcePath: [PastVersion]] {
        guard let versions = try versioned?.versions(in: scope, replacedAfter: time, store: now) else {
            throw DocumentStoreError.invalidCall("the store at \(description) keeps no past versions of its documents, so it cannot be read at \(time)")
        }
        return Dictionary(grouping: versions, by: \.path)
    }

    private func states(_ paths: [ResourcePath]) throws -> [(document: StoredDocument, times: DocumentTimes?)] {
        try backend.consistently {
            let current = try paths.map { try backend.document(at: $0, store: now) }
            let times = try backend.documentTimes(paths)
            let versions = try versions(.documents(paths))
            return paths.indices.map { PastVersion.state(at: time, versions: versions[paths[$0]] ?? [], current: current[$0], currentTimes: times[$0]) }
        }
    }

    func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] {
        try states(paths).map(\.document)
    }

    func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?] {
        try states(paths).map(\.times)
    }

    /// The documents of a collection or group that existed at `time`, as they were.
    private func documents(of source: QueryDefinition.Source, store: Firestore) throws -> [QueryDocumentSnapshot] {
        try backend.consistently {
            let current = try backend.results(of: Query(firestore: now, definition: QueryDefinition(source: source), invalid: nil))
            let paths = current.map(\.reference.resourcePath)
            let times = try backend.documentTimes(paths)
            var versions = try versions({ switch source { case .collection(let path): .collection(path); case .group(let id): .group(id) } }())
            var found: [QueryDocumentSnapshot] = []
            func add(_ path: ResourcePath, _ document: StoredDocument, _ times: DocumentTimes?) {
                let state = PastVersion.state(at: time, versions: versions.removeValue(forKey: path) ?? [], current: document, currentTimes: times)
                guard state.document != .missing else { return }
                found.append(QueryDocumentSnapshot(reference: DocumentReference(firestore: store, path: path), stored: state.document))
            }
            for (index, snapshot) in current.enumerated() { add(paths[index], snapshot.stored, times[index]) }
            for path in Array(versions.keys) { add(path, .missing, nil) }  // deleted since
            return found
        }
    }

    func results(of query: Query) throws -> [QueryDocumentSnapshot] {
        query.evaluator.results(from: try documents(of: query.definition.source, store: query.firestore))
    }

    /// The ids of the collection's documents at `time`, with those that have collections now.
    func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> {
        var ids = Set(try documents(of: .collection(collection), store: now).map(\.key))
        for path in try (backend as? SubcollectionIndex)?.idsWithCollections(in: collection) ?? [] { ids.insert(ExactID(path)) }
        return ids
    }

    /// The collections below `parent` that held a document, at any depth, at `time`.
    func collectionIDs(under parent: ResourcePath) throws -> [String] {
        let depth = parent.segments.count
        var candidates = Set(try backend.collectionIDs(under: parent))
        let below = try versioned?.versions(in: .below(parent), replacedAfter: time, store: now) ?? []
        for version in below { candidates.insert(version.path.segments[depth]) }
        return try candidates.filter { try holdsDocument(parent.appending($0)) }.sorted()
    }

    /// Whether the collection, or one below it, held a document at `time`: looked for below
    /// the documents that have collections now or had since.
    private func holdsDocument(_ collection: ResourcePath) throws -> Bool {
        if try !documents(of: .collection(collection), store: now).isEmpty { return true }
        var parents = Set(try (backend as? SubcollectionIndex)?.idsWithCollections(in: collection) ?? backend.documentIDs(in: collection).map(\.text))
        let depth = collection.segments.count
        for version in try versioned?.versions(in: .below(collection), replacedAfter: time, store: now) ?? [] where version.path.segments.count > depth + 1 {
            parents.insert(version.path.segments[depth])
        }
        for id in parents where try !collectionIDs(under: collection.appending(id)).isEmpty { return true }
        return false
    }

    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument] {
        throw DocumentStoreError.invalidCall("the store as it was at \(time) is read-only")
    }

    func changeSource(for key: Firestore.WatchKey, store: Firestore) -> ChangeSource { NoChanges() }
    /// The backend is the store's, which closes it.
    func close() {}
}

extension Firestore {
    /// The store as it was at `time` (read-only), for reads at a past time (`read_time`); what
    /// was written since is read as it was, from the versions the backend kept.
    package func asOf(_ time: Timestamp) -> Firestore {
        Firestore(opened: StorePlace.Opened(backend: PastBackend(self, at: time), directory: directory, location: location), settings: settings,
                  app: app, databaseID: databaseID)
    }

    /// Starts keeping past versions where the backend keeps them only when asked (a folder:
    /// `.shelf/versions`); `shelf serve` asks, so it can answer reads at a past time.
    package func keepPastVersions() throws {
        do { try (backend as? VersionedStorage)?.keepVersions() } catch { throw publicError(error) }
    }
}

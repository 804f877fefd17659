import DocumentStore
import Foundation
import Observation

/// A collection kept up to date by a snapshot listener: every document in id order, each with
/// its decoded model or its own problem (unlike the sample, one bad document never hides
/// another's error). Rows decode lazily, so a huge collection costs nothing until shown.
@Observable @MainActor
public final class LiveCollection<Model: Codable & Sendable> {
    /// One document and, once asked for, its model or its problem.
    public final class Row: Identifiable {
        public let snapshot: DocumentSnapshot
        public var id: String { snapshot.documentID }
        public var path: String { snapshot.reference.path }

        /// `decoded`, when given, is the model or problem already worked out (off the main thread).
        init(_ snapshot: DocumentSnapshot, decoded: Result<Model, DocumentProblem>? = nil) {
            self.snapshot = snapshot
            wasDecodedInAdvance = decoded != nil
            if let decoded { self.decoded = decoded }
        }

        /// For tests: whether the row came with its model already worked out.
        let wasDecodedInAdvance: Bool

        private lazy var decoded: Result<Model, DocumentProblem> = Self.decode(snapshot)

        nonisolated static func decode(_ snapshot: DocumentSnapshot) -> Result<Model, DocumentProblem> {
            Result { try snapshot.data(as: Model.self) }.mapError { DocumentProblem(path: snapshot.reference.path, error: $0) }
        }

        public var model: Model? { try? decoded.get() }
        public var problem: DocumentProblem? {
            if case .failure(let problem) = decoded { return problem }
            return nil
        }
    }

    public let collection: CollectionReference
    public private(set) var rows: [Row] = [] {
        didSet {
            version += 1
            positions = nil
        }
    }
    /// Goes up each time the rows change, so screens can cache what they derive from them.
    public private(set) var version = 0
    /// Keyed by the id's bytes: "café" in NFC and in NFD are two documents.
    @ObservationIgnored private var positions: [ExactID: Int]?
    public private(set) var hasLoaded = false
    /// While a large collection is first read: how many documents are read, of how many (the
    /// rows then hold those read so far, in the order they were read).
    public private(set) var loadProgress: (read: Int, total: Int?)?
    /// The listener's own error (the folder cannot be read...), nil when it works.
    public private(set) var listenerError: String?
    @ObservationIgnored private var registration: ListenerRegistration?
    /// A new listener's first snapshot holds every document as `.added`: it replaces the rows.
    @ObservationIgnored private var awaitsFirstSnapshot = false
    /// Which subscription a slice decoded off the main thread belongs to: one that arrives
    /// after `unsubscribe` (or a new `subscribe`) is dropped.
    @ObservationIgnored private var subscription = 0
    /// Decodes the slices reported while a large collection loads, one after the other (each
    /// on every core). A first snapshot that follows reports passes through here after them,
    /// so it finds every row read so far with its model: otherwise it can overtake the last
    /// slices, whose rows are then made again and decoded a second time on the main thread.
    @ObservationIgnored private let decoding = DispatchQueue(label: "LiveCollection.decoding")

    public init(_ collection: CollectionReference) {
        self.collection = collection
    }

    public var isSubscribed: Bool { registration != nil }
    public var models: [Model] { rows.compactMap(\.model) }
    public var problems: [DocumentProblem] { rows.compactMap(\.problem) }

    /// "No documents in 'colors' collection" once loaded and empty; or the listener's error.
    public var statusMessage: String? {
        if let listenerError { return listenerError }
        if hasLoaded && rows.isEmpty { return "No documents in '\(collection.collectionID)' collection" }
        return nil
    }

    /// Starts listening; calling it again while subscribed does nothing.
    public func subscribe() {
        guard registration == nil else { return }
        awaitsFirstSnapshot = true
        subscription += 1
        let current = subscription
        let decoding = decoding
        // Set by the first report (on the store's queue). From then on every snapshot passes
        // through `decoding` too, so none overtakes one still waiting there behind a slice.
        let hadReports = Locked(false)
        registration = collection.addSnapshotListener(progress: { [weak self] progress in
            hadReports.withLock { $0 = true }
            // Decoded on every core, off the main thread: the rows arrive ready to sort and show.
            decoding.async {
                let decoded = Self.decodeAll(progress.documents)
                onMain {
                    guard let self, self.subscription == current else { return }
                    self.applyProgress(progress, decoded: decoded)
                }
            }
        }) { [weak self] snapshot, error in
            let hadReported = hadReports.withLock { $0 }
            guard hadReported else { return onMain { self?.apply(snapshot, error) } }
            let delivered = Delivered(snapshot: snapshot, error: error)
            decoding.async { onMain { self?.apply(delivered.snapshot, delivered.error) } }
        }
    }

    /// Stops listening; the rows stay as they were once loaded. Calling it again does nothing.
    public func unsubscribe() {
        registration?.remove()
        registration = nil
        subscription += 1
        // Rows of a read that did not finish are only part of the collection: not kept.
        if !hasLoaded {
            rows = []
            loadProgress = nil
        }
    }

    private func apply(_ snapshot: QuerySnapshot?, _ error: Error?) {
        guard let snapshot else {
            listenerError = error.map { "\($0)" } ?? "No documents in '\(collection.collectionID)' collection"
            hasLoaded = true  // loaded as far as it can be: the screen says why it is empty
            return
        }
        listenerError = nil
        if awaitsFirstSnapshot {
            awaitsFirstSnapshot = false
            // The rows shown while loading keep their objects (and what was derived from them).
            var loading: [ObjectIdentifier: Row] = [:]
            loading.reserveCapacity(rows.count)
            for row in rows { loading[ObjectIdentifier(row.snapshot)] = row }
            rows = snapshot.documents.map { loading[ObjectIdentifier($0)] ?? Row($0) }
            hasLoaded = true
            loadProgress = nil
            return
        }
        // Firestore's indices: each change applies to the rows as the previous ones left them.
        var updated = rows
        for change in snapshot.documentChanges {
            switch change.type {
            case .removed:
                updated.remove(at: Int(change.oldIndex))
            case .added:
                updated.insert(Row(change.document), at: Int(change.newIndex))
            case .modified:
                updated.remove(at: Int(change.oldIndex))
                updated.insert(Row(change.document), at: Int(change.newIndex))
            }
        }
        rows = updated
        hasLoaded = true
    }

    /// While a large collection is first read: the documents read so far, in the order they
    /// were read, so a screen can show them before the whole collection is in. Listening again
    /// after `unsubscribe`, the rows kept from before stay until the first snapshot replaces
    /// them, rather than being added to.
    func applyProgress(_ progress: LoadProgress, decoded: [Result<Model, DocumentProblem>]? = nil) {
        guard awaitsFirstSnapshot, !hasLoaded else { return }
        // The count only grows.
        loadProgress = (max(progress.read, loadProgress?.read ?? 0), progress.total ?? loadProgress?.total)
        guard !progress.documents.isEmpty else { return }
        rows += progress.documents.indices.map { Row(progress.documents[$0], decoded: decoded?[$0]) }
    }

    /// Each document's model or problem, worked out on every core.
    private nonisolated static func decodeAll(_ documents: [QueryDocumentSnapshot]) -> [Result<Model, DocumentProblem>] {
        let chunk = 512
        let parts = DecodedParts<Model>(count: (documents.count + chunk - 1) / chunk)
        DispatchQueue.concurrentPerform(iterations: parts.count) { part in
            parts.set(part, (part * chunk..<min(documents.count, (part + 1) * chunk)).map { Row.decode(documents[$0]) })
        }
        return parts.joined()
    }

    public func row(id: String) -> Row? { index(of: id).map { rows[$0] } }

    /// The row's position, from a map built once per change of the rows.
    public func index(of id: String) -> Int? {
        if let positions { return positions[ExactID(id)] }
        var built: [ExactID: Int] = [:]
        built.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() { built[ExactID(row.id)] = index }
        positions = built
        return built[ExactID(id)]
    }

    // MARK: Writes (on disk when they return; the listener then delivers them)

    /// The last write's failure, for the screen to show; cleared by the next write that works,
    /// or by `forgetWriteError()`.
    public private(set) var writeError: String?

    /// For a failure that no longer holds: the server the write could not reach is back.
    public func forgetWriteError() { writeError = nil }

    /// Runs a write, keeping its failure in `writeError`; nil when it failed.
    @discardableResult
    public func attempt<T>(_ write: () throws -> T) -> T? {
        do {
            let result = try write()
            writeError = nil
            return result
        } catch {
            writeError = DocumentProblem(path: collection.path, error: error).message
            return nil
        }
    }

    /// A write refused before it started, said the same way.
    public func refuse(_ reason: String) { writeError = reason }

    @discardableResult
    public func add(_ model: Model) throws -> DocumentReference {
        try collection.add(model)
    }

    /// Merges, so fields the model does not know stay in the document. `removing` names
    /// optional fields the model left out on purpose: they are deleted from the document.
    public func update(_ model: Model, id: String, removing fields: [String] = []) throws {
        let reference = collection.document(id)
        guard !fields.isEmpty else { return try reference.write(model, merge: true) }
        var data = try Firestore.Encoder().encode(model)
        for field in fields where data[field] == nil { data[field] = FieldValue.delete() }
        try reference.write(data, merge: true)
    }

    public func delete(id: String) throws {
        try collection.document(id).deleteDocument()
    }
}

/// Runs `body` on the main actor: at once when called there, as store callbacks are by
/// default, or queued onto it otherwise.
func onMain(_ body: @escaping @MainActor () -> Void) {
    if Thread.isMainThread {
        MainActor.assumeIsolated(body)
    } else {
        DispatchQueue.main.async { MainActor.assumeIsolated(body) }
    }
}

/// A listener's call, carried to the decoding queue as it is.
private struct Delivered: @unchecked Sendable {
    let snapshot: QuerySnapshot?
    let error: Error?
}

/// The chunks of a slice decoded side by side, each set once by its own task.
private final class DecodedParts<Model: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[Result<Model, DocumentProblem>]]
    let count: Int

    init(count: Int) {
        self.count = count
        parts = Array(repeating: [], count: count)
    }

    func set(_ index: Int, _ part: [Result<Model, DocumentProblem>]) { lock.withLock { parts[index] = part } }
    func joined() -> [Result<Model, DocumentProblem>] { lock.withLock { parts.flatMap { $0 } } }
}

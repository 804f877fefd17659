// ShelfModels: the models and view models of the guide "Mapping Firestore Data in Swift" (its
// books, colours, articles and the rest, Codable as the guide writes them), the live collections
// and windows the app lists them through, and the checks of a store's data (`shelf check`).

import DocumentStore
import Foundation
import Observation

/// A collection kept up to date by a snapshot listener: every document in id order, each with
/// its decoded model or its own problem (unlike the sample, one bad document never hides
/// another's error). A row decodes when first asked for its model (a row drawn), so a huge
/// collection costs its snapshots only: lists sort and search by the stored fields.
@Observable @MainActor
public final class LiveCollection<Model: Codable & Sendable> {
    /// One document and, once asked for, its model or its problem.
    ///
    /// Two references, not an object: a row of a million is 16 bytes in the rows' array rather
    /// than 8 there and a 48-byte block of malloc. The models of the rows asked for are kept
    /// by the collection (`Decodings`), by their snapshot.
    public struct Row: Identifiable {
        public let snapshot: DocumentSnapshot
        private let decodings: Decodings
        public var id: String { snapshot.documentID }
        public var path: String { snapshot.reference.path }
        /// The id by its bytes: "café" in NFC and in NFD are two documents.
        var key: ExactID { snapshot.key }

        fileprivate init(_ snapshot: DocumentSnapshot, _ decodings: Decodings) {
            self.snapshot = snapshot
            self.decodings = decodings
        }

        /// A row of no collection, decoded on its own.
        package init(_ snapshot: DocumentSnapshot) { self.init(snapshot, Decodings()) }

        /// For tests: whether the row's model or problem was worked out.
        package var isDecoded: Bool { decodings.has(snapshot) }

        public var model: Model? { try? decodings.result(of: snapshot).get() }
        public var problem: DocumentProblem? {
            if case .failure(let problem) = decodings.result(of: snapshot) { return problem }
            return nil
        }
    }

    /// The model or problem of each row asked for, decoded once, by the row's snapshot (a
    /// changed document is a new snapshot, so a new row, decoded afresh). Entries of snapshots
    /// no longer a row are dropped once they are as many again as at the last look.
    fileprivate final class Decodings {
        private var results: [ObjectIdentifier: (snapshot: DocumentSnapshot, result: Result<Model, DocumentProblem>)] = [:]
        private var lookAt = 256

        func has(_ snapshot: DocumentSnapshot) -> Bool { results[ObjectIdentifier(snapshot)] != nil }
        var count: Int { results.count }

        func result(of snapshot: DocumentSnapshot) -> Result<Model, DocumentProblem> {
            // The entry holds its snapshot, so no other object takes its identifier meanwhile.
            if let entry = results[ObjectIdentifier(snapshot)] { return entry.result }
            let result = Result { try snapshot.data(as: Model.self) }.mapError { DocumentProblem(path: snapshot.reference.path, error: $0) }
            results[ObjectIdentifier(snapshot)] = (snapshot, result)
            return result
        }

        /// Drops the entries of snapshots that are not one of `rows` (in id order).
        func forget(allBut rows: [Row]) {
            guard results.count > lookAt else { return }
            results = results.filter { entry in
                LiveCollection.position(of: entry.value.snapshot.key, in: rows).map { rows[$0].snapshot === entry.value.snapshot } ?? false
            }
            lookAt = max(256, 2 * results.count)
        }
    }

    @ObservationIgnored private let decodings = Decodings()
    /// For tests: how many models or problems are kept, of rows and of rows no longer shown.
    package var decodingsKept: Int { decodings.count }

    public let collection: CollectionReference
    /// In id order (by the ids' bytes) at all times, also while a large collection loads.
    public private(set) var rows: [Row] = []

    /// The rows' stored documents, for work on other cores (sort keys, search texts): a row
    /// also holds the collection's cache of decoded models, which only the main thread may
    /// touch, so only the snapshots are handed out.
    public var snapshots: RowSnapshots { RowSnapshots(rows: rows) }

    /// The documents of the rows at one moment, readable from any thread.
    public struct RowSnapshots: @unchecked Sendable {
        fileprivate let rows: [Row]
        public subscript(index: Int) -> DocumentSnapshot { rows[index].snapshot }
    }
    /// Goes up each time the rows change, so screens can cache what they derive from them.
    public private(set) var version = 0
    /// How the rows changed at each of the last few versions (nil: not known).
    @ObservationIgnored private var recentMaps: [(version: Int, map: RowMap?)] = []
    /// Maps kept, and the positions they hold (an Int32 a row moved): a slice read in id
    /// order moves few rows, so a screen that missed many slices while a million rows loaded
    /// still follows them rather than making every key again.
    private static var mapsKept: Int { 256 }
    private var positionsKept: Int { max(8 * rows.count, 100_000) }
    public private(set) var hasLoaded = false
    /// While a large collection is first read: how many documents are read, of how many (the
    /// rows then hold those read so far, in id order too).
    public private(set) var loadProgress: (read: Int, total: Int?)?
    /// The listener's own error (the folder cannot be read...), nil when it works.
    public private(set) var listenerError: String?
    @ObservationIgnored private var registration: ListenerRegistration?
    /// A new listener's first snapshot holds every document as `.added`: it replaces the rows.
    @ObservationIgnored private var awaitsFirstSnapshot = false
    /// Which subscription a slice decoded off the main thread belongs to: one that arrives
    /// after `unsubscribe` (or a new `subscribe`) is dropped.
    @ObservationIgnored private var subscription = 0
    /// Puts the slices reported while a large collection loads in id order, one after the
    /// other, off the main thread. A first snapshot that follows reports passes through here
    /// after them, so it finds every row read so far: otherwise it can overtake the last
    /// slices, whose rows are then made a second time.
    @ObservationIgnored private let ordering = DispatchQueue(label: "LiveCollection.ordering")

    public init(_ collection: CollectionReference) {
        self.collection = collection
    }

    /// A listener left running would keep its watcher (and its inotify instance) for as long
    /// as the store lives.
    deinit { registration?.remove() }

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
        let ordering = ordering
        // Set by the first report (on the store's queue). From then on every snapshot passes
        // through `ordering` too, so none overtakes one still waiting there behind a slice.
        let hadReports = Locked(false)
        registration = collection.addSnapshotListener(progress: { [weak self] progress in
            hadReports.withLock { $0 = true }
            // In id order off the main thread, so the main thread only merges them into the rows.
            ordering.async {
                let documents = Self.inIDOrder(progress.documents)
                onMain {
                    guard let self, self.subscription == current else { return }
                    self.applyProgress(read: progress.read, total: progress.total, documents: documents)
                }
            }
        }) { [weak self] snapshot, error in
            let hadReported = hadReports.withLock { $0 }
            guard hadReported else { return onMain { self?.apply(snapshot, error) } }
            let delivered = Delivered(snapshot: snapshot, error: error)
            ordering.async { onMain { self?.apply(delivered.snapshot, delivered.error) } }
        }
    }

    /// Stops listening; the rows stay as they were once loaded. Calling it again does nothing.
    public func unsubscribe() {
        registration?.remove()
        registration = nil
        subscription += 1
        // Rows of a read that did not finish are only part of the collection: not kept.
        if !hasLoaded {
            setRows([], map: nil)
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
        if awaitsFirstSnapshot || snapshot.documentChanges.count > Self.changesAppliedOneByOne {
            awaitsFirstSnapshot = false
            loadProgress = nil
            take(snapshot.documents)
        } else {
            applyChanges(snapshot.documentChanges)
        }
        hasLoaded = true
    }

    /// More changes than this in one snapshot are taken by one walk through the rows rather than
    /// one by one (each moves the rows after it).
    private static var changesAppliedOneByOne: Int { 64 }

    /// Firestore's indices: each change applies to the rows as the previous ones left them.
    /// Touches only the rows that changed, not every row object, and follows only the rows
    /// between the first and last changed: those before stay, those after all moved alike
    /// (a change to the first of a million rows maps one row, not a million).
    private func applyChanges(_ changes: [DocumentChange]) {
        guard !changes.isEmpty else { return }
        var updated = rows
        rows = []  // one owner, so the rows are moved, not copied
        let before = updated.count
        var window = ChangeWindow()
        for change in changes {
            switch change.type {
            case .removed:
                updated.remove(at: Int(change.oldIndex))
                window.remove(at: Int(change.oldIndex))
            case .added:
                updated.insert(Row(change.document, decodings), at: Int(change.newIndex))
                window.insert(at: Int(change.newIndex))
            case .modified:
                updated.remove(at: Int(change.oldIndex))
                window.remove(at: Int(change.oldIndex))
                updated.insert(Row(change.document, decodings), at: Int(change.newIndex))
                window.insert(at: Int(change.newIndex))
            }
        }
        setRows(updated, map: window.map(earlierCount: before, count: updated.count))
    }

    /// Makes the rows a snapshot's documents (in id order, as the rows are). A row whose
    /// snapshot is the very object delivered stays as it is, with its model if decoded: so the first
    /// snapshot after a large collection loaded, which holds the documents reported while it
    /// loaded, changes no row.
    private func take(_ documents: [QueryDocumentSnapshot]) {
        let rows = rows  // once: each read of the observed property costs a key path
        var taken: [Row] = []
        taken.reserveCapacity(documents.count)
        var positions = [Int32](repeating: -1, count: rows.count)
        var old = 0
        for document in documents {
            // Rows before this document are gone.
            while old < rows.count, rows[old].snapshot !== document, rows[old].key < document.key { old += 1 }
            if old < rows.count, rows[old].snapshot === document {
                positions[old] = Int32(taken.count)
                taken.append(rows[old])
                old += 1
            } else {
                if old < rows.count, rows[old].key == document.key { old += 1 }  // a newer snapshot of it
                taken.append(Row(document, decodings))
            }
        }
        if taken.count == rows.count && positions.indices.allSatisfy({ positions[$0] == Int32($0) }) { return }
        setRows(taken, map: RowMap(positions: positions, count: taken.count))
    }

    /// While a large collection is first read: the documents read so far, merged into the rows
    /// in id order, so a screen can show them before the whole collection is in. Listening again
    /// after `unsubscribe`, the rows kept from before stay until the first snapshot replaces
    /// them, rather than being added to.
    func applyProgress(_ progress: LoadProgress) {
        applyProgress(read: progress.read, total: progress.total, documents: Self.inIDOrder(progress.documents))
    }

    /// `documents` in id order.
    private func applyProgress(read: Int, total: Int?, documents: [QueryDocumentSnapshot]) {
        guard awaitsFirstSnapshot, !hasLoaded else { return }
        // The count only grows.
        loadProgress = (max(read, loadProgress?.read ?? 0), total ?? loadProgress?.total)
        guard let first = documents.first?.key else { return }
        var rows = rows  // once: each read of the observed property costs a key path
        self.rows = []  // one owner, so the rows before `start` are not copied
        // Rows before the first document read stay where they are; the rest are merged.
        var start = rows.count
        while start > 0 && !(rows[start - 1].key < first) { start -= 1 }
        // Slices come in id order, so `start` is near the end: only the rows after it move.
        var positions = [Int32](repeating: -1, count: rows.count - start)  // of the rows from `start`
        var merged: [Row] = []
        merged.reserveCapacity(rows.count - start + documents.count)
        var old = start
        for document in documents {
            while old < rows.count, rows[old].key < document.key {
                positions[old - start] = Int32(start + merged.count)
                merged.append(rows[old])
                old += 1
            }
            if old < rows.count, rows[old].key == document.key { old += 1 }  // read again: this one is newer
            merged.append(Row(document, decodings))
        }
        for row in rows[old...] {
            positions[old - start] = Int32(start + merged.count)
            merged.append(row)
            old += 1
        }
        rows.replaceSubrange(start..., with: merged)
        setRows(rows, map: RowMap(kept: start, rest: positions, count: rows.count))
    }

    private nonisolated static func inIDOrder(_ documents: [QueryDocumentSnapshot]) -> [QueryDocumentSnapshot] {
        let sorted = documents.indices.dropFirst().allSatisfy { documents[$0 - 1].key < documents[$0].key }
        return sorted ? documents : documents.sorted { $0.key < $1.key }
    }

    private func setRows(_ new: [Row], map: RowMap?) {
        rows = new
        decodings.forget(allBut: new)
        version += 1
        recentMaps.append((version, map))
        while recentMaps.count > Self.mapsKept || recentMaps.reduce(0, { $0 + ($1.map?.positionsAfterKept.count ?? 0) }) > positionsKept {
            recentMaps.removeFirst()
        }
    }

    /// How the rows of an earlier `version` became today's, or nil when that is not known
    /// (too many changes ago): then whatever was derived from those rows is made again.
    public func rowMap(since version: Int) -> RowMap? {
        if version == self.version { return .identity(rows.count) }
        guard let first = recentMaps.firstIndex(where: { $0.version == version + 1 }) else { return nil }
        var composed: RowMap?
        for entry in recentMaps[first...] {
            guard let map = entry.map else { return nil }
            composed = composed.map { $0.then(map) } ?? map
        }
        return composed
    }

    public func row(id: String) -> Row? { index(of: id).map { rows[$0] } }

    /// The row's position: the rows are in id order, so a binary search finds it.
    public func index(of id: String) -> Int? {
        let rows = rows
        let key = ExactID(id)
        let low = Self.firstPosition(notBefore: key, in: rows)
        // The id of a file whose name is not UTF-8 is its escaped name: found too.
        return low < rows.count && ExactID(rows[low].key.text) == key ? low : nil
    }

    /// The position of the row of exactly this id.
    fileprivate nonisolated static func position(of key: ExactID, in rows: [Row]) -> Int? {
        let low = firstPosition(notBefore: key, in: rows)
        return low < rows.count && rows[low].key == key ? low : nil
    }

    private nonisolated static func firstPosition(notBefore key: ExactID, in rows: [Row]) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
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

/// The rows a run of changes touched, from the first to the last (positions as the changes
/// left them), with the earlier row each came from (-1: new); the rows before the window stay
/// where they were, those after it moved by `shift`.
private struct ChangeWindow {
    private var low = 0
    private var origins: [Int32] = []
    private var shift = 0
    private var isEmpty = true

    private var high: Int { low + origins.count }

    /// Takes in the positions `lower..<upper` (as they are now).
    private mutating func widen(_ lower: Int, _ upper: Int) {
        if isEmpty {
            (low, isEmpty) = (lower, false)
            origins = (lower..<upper).map { Int32($0) }
            return
        }
        if lower < low {
            origins.insert(contentsOf: (lower..<low).map { Int32($0) }, at: 0)
            low = lower
        }
        if upper > high { origins += (high..<upper).map { Int32($0 - shift) } }
    }

    mutating func remove(at position: Int) {
        widen(position, position + 1)
        origins.remove(at: position - low)
        shift -= 1
    }

    mutating func insert(at position: Int) {
        widen(position, position)
        origins.insert(-1, at: position - low)
        shift += 1
    }

    func map(earlierCount: Int, count: Int) -> RowMap {
        let earlierHigh = high - shift
        var rest = [Int32](repeating: -1, count: earlierHigh - low)
        for (offset, origin) in origins.enumerated() where origin >= 0 { rest[Int(origin) - low] = Int32(low + offset) }
        return RowMap(kept: low, rest: rest, tail: earlierCount - earlierHigh, shift: shift, count: count)
    }
}

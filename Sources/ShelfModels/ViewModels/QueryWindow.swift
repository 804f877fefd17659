import DocumentStore
import Foundation
import Observation

/// A window onto an ordered query's results, for a list of any size on a database server: the
/// documents at and around the positions shown, and how many there are in all (a count
/// aggregation); never the whole collection. A position not read yet has no document (a list
/// shows "…" there), so showing a part of the list never waits on the server.
///
/// The window is one run of the query's documents, `first` the position of its first one. A
/// part shown next to it extends it by a cursor from one of its ends (`start(afterDocument:)`;
/// `end(beforeDocument:)` with `limit(toLast:)`); a part elsewhere replaces the window, read
/// from the nearer end of the list with an offset, which the server skips in its index
/// instead of sending what lies between. Documents far from the part shown are let go, so
/// what is held stays a few pages whatever the size.
///
/// The window follows the server: a listener on the window's own query (from its first
/// document, as many as it holds) sends what changes in it, and each such change counts the
/// list again, and the documents before the window, so its positions are made exact again. A
/// change before the window that moves nothing in it is counted only at the next change in it
/// (no Firestore listener tells of counts). Counts take turns with those of the windows that
/// replace this one (`CountQueue`), so the rows of the window shown never wait behind counts
/// of windows no one sees; and a window's first count waits for its first rows.
@Observable @MainActor
public final class QueryWindow {
    /// The query listed, ordered as the list is (Firestore orders ties by id).
    public let query: Query
    /// How many documents a read asks for at least, and the margin read beyond the part shown.
    public let pageSize: Int
    /// How many documents the query has, once counted.
    public private(set) var count: Int?
    /// The position of `documents`' first one.
    public private(set) var first = 0
    public private(set) var documents: [QueryDocumentSnapshot] = []
    /// The last read's or the listener's error, nil once one works.
    public private(set) var error: String?
    /// Goes up whenever `documents`, `first` or `count` change.
    public private(set) var version = 0
    /// True while a read waits for the store to make what serves the query's order (a
    /// server's index, made once: a minute at ten million documents), asked every
    /// `orderCheckInterval` of a read, so a list can say why its rows are slow to come.
    public private(set) var isWaitingForItsOrder = false
    static let orderCheckInterval = Duration.milliseconds(500)

    /// For tests: how many documents reads brought, how many reads there were, and how many
    /// counts of the list.
    @ObservationIgnored private(set) var documentsRead = 0
    @ObservationIgnored private(set) var reads = 0
    @ObservationIgnored private(set) var counted = 0
    /// For tests: how many counts were asked for (`counted` are those that ran).
    @ObservationIgnored private(set) var countsAsked = 0

    /// The part of the list last shown.
    @ObservationIgnored private var shown: Range<Int> = 0..<0
    @ObservationIgnored private var isReading = false
    /// Reads and counts not answered yet; those awaiting none (`finishReads`) are told when
    /// it comes to 0.
    @ObservationIgnored private var inFlight = 0 {
        didSet {
            guard inFlight == 0 else { return }
            for waiter in idleWaiters { waiter.resume() }
            idleWaiters = []
        }
    }
    @ObservationIgnored private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// True while a read or a count is on its way.
    var isBusy: Bool { inFlight > 0 }
    @ObservationIgnored private var isStarted = false
    /// The read and the count under way, cancelled when the window stops.
    @ObservationIgnored private var reading: Task<Void, Never>?
    @ObservationIgnored private var counting: Task<(Int, Int?), Error>?
    @ObservationIgnored private var registration: ListenerRegistration?
    /// Tells the answers of reads and listeners from before `stop()` or a replaced window.
    @ObservationIgnored private var generation = 0

    /// Where this window's counts wait their turn: shared by the windows that replace one
    /// another in a list (`CountQueue`).
    @ObservationIgnored private let counts: CountQueue

    public init(_ query: Query, pageSize: Int = 100, counts: CountQueue = CountQueue()) {
        self.query = query
        self.pageSize = max(1, pageSize)
        self.counts = counts
    }

    deinit { registration?.remove() }

    /// Reads the list's first page, then counts it.
    public func start() {
        guard !isStarted else { return }
        isStarted = true
        isCountWanted = true
        readWhatIsMissing()
        if !isReading { countIfWanted() }  // nothing to read: what is held is counted again now
    }

    /// Set by `start`, and the count asked for once a read has answered: on a server a count
    /// of ten million rows takes the cores and a connection that the first rows need.
    @ObservationIgnored private var isCountWanted = false

    private func countIfWanted() {
        guard isCountWanted else { return }
        isCountWanted = false
        recount()
    }

    /// Stops following the server; the documents held stay.
    public func stop() {
        isStarted = false
        isCountWanted = false
        generation += 1
        isReading = false
        isWaitingForItsOrder = false
        registration?.remove()
        registration = nil
        // Their answers would be dropped: the server stops working on them.
        reading?.cancel()
        counting?.cancel()
    }

    /// The document at `position`, or nil while it is not read.
    public func document(at position: Int) -> QueryDocumentSnapshot? {
        let index = position - first
        return documents.indices.contains(index) ? documents[index] : nil
    }

    /// The position of the document with `id`, when the window holds it.
    public func position(of id: String) -> Int? {
        documents.firstIndex { $0.documentID == id }.map { first + $0 }
    }

    /// The list shows `positions` now: what is missing of them, and a margin, is read.
    public func show(_ positions: Range<Int>) {
        shown = positions
        readWhatIsMissing()
    }

    /// The positions to hold: the part shown and a page each side, within the list.
    private var wanted: Range<Int> {
        let upper = shown.upperBound + pageSize
        let lower = max(0, shown.lowerBound - pageSize)
        guard let count else { return lower..<max(lower, upper) }
        return min(lower, count)..<min(max(lower, upper), count)
    }

    // MARK: Reading

    /// How the next read reaches the positions wanted, and how many documents it asks for.
    private enum Read {
        /// After the window's last document.
        case after(QueryDocumentSnapshot, limit: Int)
        /// Before the window's first document.
        case before(QueryDocumentSnapshot, limit: Int)
        /// From the start of the list, after its first `skipping`.
        case fromStart(skipping: Int, limit: Int)
        /// The last documents of the list but its last `skipping`.
        case fromEnd(skipping: Int, limit: Int)

        var limit: Int {
            switch self {
            case .after(_, let limit), .before(_, let limit), .fromStart(_, let limit), .fromEnd(_, let limit): limit
            }
        }
    }

    /// The read that brings the window closest to `wanted`, nil when it holds all of it.
    private func nextRead() -> Read? {
        let wanted = wanted
        guard !wanted.isEmpty else { return nil }
        let end = first + documents.count
        if let last = documents.last, wanted.lowerBound >= first, wanted.lowerBound <= end, wanted.upperBound > end {
            return .after(last, limit: max(pageSize, wanted.upperBound - end))
        }
        if let head = documents.first, wanted.upperBound <= end, wanted.upperBound >= first, wanted.lowerBound < first {
            return .before(head, limit: max(pageSize, first - wanted.lowerBound))
        }
        if !documents.isEmpty, wanted.lowerBound >= first, wanted.upperBound <= end { return nil }
        // Elsewhere: from the nearer end of the list (the start until it is counted).
        if let count, count - wanted.upperBound < wanted.lowerBound {
            return .fromEnd(skipping: count - wanted.upperBound, limit: wanted.count)
        }
        return .fromStart(skipping: wanted.lowerBound, limit: wanted.count)
    }

    private func readWhatIsMissing() {
        guard isStarted, !isReading, let read = nextRead() else { return }
        isReading = true
        let generation = generation
        let query = query
        inFlight += 1
        let orderCheck = Task { [weak self] in
            while (try? await Task.sleep(for: Self.orderCheckInterval)) != nil, let self {
                let isWaiting = query.isWaitingForItsOrder
                if isWaiting != self.isWaitingForItsOrder { self.isWaitingForItsOrder = isWaiting }
            }
        }
        reading = Task { [weak self] in
            defer { self?.inFlight -= 1 }
            let result: Result<QuerySnapshot, Error>
            do {
                result = .success(try await Self.documents(of: query, read))
            } catch {
                result = .failure(error)
            }
            orderCheck.cancel()
            guard let self, self.generation == generation else { return }
            self.isReading = false
            if self.isWaitingForItsOrder { self.isWaitingForItsOrder = false }
            switch result {
            case .success(let snapshot):
                self.error = nil
                self.take(snapshot.documents, from: read)
                self.countIfWanted()
                self.readWhatIsMissing()
            case .failure(let failure):
                self.error = "\(failure)"
            }
        }
    }

    /// Returns once every read and count started, and those they started, are done: for a
    /// test to await what it asked for, with no polling.
    package func finishReads() async {
        guard inFlight > 0 else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    private nonisolated static func documents(of query: Query, _ read: Read) async throws -> QuerySnapshot {
        let limit = max(1, read.limit)
        return switch read {
        case .after(let last, _): try await query.start(afterDocument: last).limit(to: limit).getDocuments()
        case .before(let head, _): try await query.end(beforeDocument: head).limit(toLast: limit).getDocuments()
        case .fromStart(let skipping, _): try await query.offset(skipping).limit(to: limit).getDocuments()
        case .fromEnd(let skipping, _): try await query.offset(skipping).limit(toLast: limit).getDocuments()
        }
    }

    /// Puts what a read brought into the window, then lets go of what is far from the part
    /// shown. A read that brings fewer than it asked for reached an end of the list, which
    /// tells the count or the first position: a count made before documents were deleted
    /// would otherwise ask for the missing ones again and again. One that skipped past the
    /// end and brought nothing tells neither: the list is counted again.
    private func take(_ read: [QueryDocumentSnapshot], from kind: Read) {
        reads += 1
        documentsRead += read.count
        let reachedAnEnd = read.count < kind.limit
        switch kind {
        case .after(let last, _):
            guard documents.last?.documentID == last.documentID else { return }  // the window moved meanwhile
            documents += read
            if reachedAnEnd { count = first + documents.count }
        case .before(let head, _):
            guard documents.first?.documentID == head.documentID else { return }
            documents.insert(contentsOf: read, at: 0)
            first = reachedAnEnd ? 0 : max(0, first - read.count)
        case .fromStart(let skipped, _):
            documents = read
            first = skipped
            if reachedAnEnd { ended(skipping: skipped, reading: read.count) }
        case .fromEnd(let skipped, _):
            documents = read
            first = reachedAnEnd ? 0 : max(0, (count ?? read.count) - skipped - read.count)
            if reachedAnEnd { ended(skipping: skipped, reading: read.count) }
        }
        trim()
        version += 1
        follow()
    }

    /// A read from one end of the list reached the other: the list holds what it skipped and
    /// what it read, unless it skipped past the end and read nothing, which tells no count.
    private func ended(skipping skipped: Int, reading read: Int) {
        if read == 0 && skipped > 0 { recount() } else { count = skipped + read }
    }

    /// Keeps the documents within a few pages of the part shown.
    private func trim() {
        let keep = max(0, shown.lowerBound - 2 * pageSize)..<(shown.upperBound + 2 * pageSize)
        let drop = max(0, keep.lowerBound - first)
        if drop > 0 {
            documents.removeFirst(min(drop, documents.count))
            first += drop
        }
        let end = first + documents.count
        if end > keep.upperBound { documents.removeLast(min(end - keep.upperBound, documents.count)) }
    }

    // MARK: Following the server

    /// Listens to the window's own query: from its first document (from the start of the list
    /// when it is there, so a document added before it shows), as many as it holds.
    private func follow() {
        registration?.remove()
        registration = nil
        guard isStarted, let head = documents.first else { return }
        let window = (first == 0 ? query : query.start(atDocument: head)).limit(to: documents.count)
        let generation = generation
        var isFirst = true
        registration = window.addSnapshotListener { [weak self] snapshot, error in
            onMain {
                guard let self, self.generation == generation else { return }
                // The first snapshot is what was just read.
                if isFirst { isFirst = false; return }
                guard let snapshot else {
                    self.error = error.map { "\($0)" }
                    return
                }
                self.documents = snapshot.documents
                self.version += 1
                self.recount()
            }
        }
    }

    /// Counts the list, and the documents before the window, off the main thread, when the
    /// count running for this list's windows is done (`CountQueue`).
    private func recount() {
        let generation = generation
        let query = query
        inFlight += 1
        countsAsked += 1
        counts.enqueue(count: { [weak self] in
            defer { self?.inFlight -= 1 }
            // The window's first document as it is once its turn comes.
            guard let self, self.generation == generation else { return }
            let head = self.first > 0 ? self.documents.first : nil
            self.counted += 1
            let counting = Task {
                let total = try await query.count.getAggregation(source: .server).count.intValue
                var before: Int?
                if let head { before = try await query.end(beforeDocument: head).count.getAggregation(source: .server).count.intValue }
                return (total, before)
            }
            self.counting = counting
            do {
                let (total, before) = try await counting.value
                guard self.generation == generation else { return }
                self.count = total
                if let before, self.documents.first?.documentID == head?.documentID { self.first = before }
                self.version += 1
                self.readWhatIsMissing()
            } catch {
                guard self.generation == generation else { return }
                self.error = "\(error)"
            }
        }, dropped: { [weak self] in self?.inFlight -= 1 })
    }
}

/// The counts of the windows of one list, one at a time, the latest asked for next: a list
/// replaced key by key (a filter typed at ten million documents, where a count may take
/// seconds) counts only its last window once the count under way ends, instead of every
/// window at once, whose counts would hold the server's connections and cores while the rows
/// of the window shown wait. A count waiting is dropped when another is asked for: it is of a
/// window replaced since, or of the same window, asking again.
@MainActor
public final class CountQueue {
    private var isCounting = false
    private var next: (count: @MainActor () async -> Void, dropped: @MainActor () -> Void)?

    public init() {}

    func enqueue(count: @escaping @MainActor () async -> Void, dropped: @escaping @MainActor () -> Void) {
        next?.dropped()
        next = (count, dropped)
        countNext()
    }

    private func countNext() {
        guard !isCounting, let count = next?.count else { return }
        next = nil
        isCounting = true
        Task {
            await count()
            isCounting = false
            countNext()
        }
    }
}

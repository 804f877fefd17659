import DocumentStore
import Foundation

/// `shelf-bench queries DIR [RUNS]`: the query figures, on a books collection already
/// on disk (make one with `shelf generate --data DIR --count 100000`):
///
/// - a filtered, ordered, limited query answered while the collection is listened to (in memory),
///   and the same query read one-off with no listener, against reading the whole collection;
/// - a listener on `whereField(…).order(by:…).limit(to: 20)`: how long until another program's
///   change to a matching document is delivered, and the CPU it costs (process CPU over a run of
///   changes, minus the same span idle).
enum QueryBench {
    static func run(_ arguments: [String]) {
        guard let directory = arguments.first else {
            FileHandle.standardError.write(Data("usage: shelf-bench queries DIR [RUNS]\n".utf8))
            exit(2)
        }
        let runs = arguments.count > 1 ? Arguments.number(arguments[1], for: "RUNS") : 10
        do {
            try measure(URL(fileURLWithPath: directory), runs: runs)
        } catch {
            FileHandle.standardError.write(Data("shelf-bench queries: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func measure(_ directory: URL, runs: Int) throws {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "shelf-bench.queries")
        let db = try Firestore(directory: directory, settings: settings)
        let books = db.collection("books")
        let page = books.whereField("numberOfPages", isGreaterThan: 300)
            .order(by: "numberOfPages", descending: true).limit(to: 20)

        let whole = try times(runs) { _ = try waitForRead { books.getDocuments(completion: $0) } }
        let oneOff = try times(runs) { _ = try waitForRead { page.getDocuments(completion: $0) } }
        print("one-off, no listener: whole collection \(Format.duration(Measure.median(whole)))"
              + ", the page query \(Format.duration(Measure.median(oneOff))) (medians of \(runs))")

        let loaded = DispatchSemaphore(value: 0)
        let collectionListener = books.addSnapshotListener { _, _ in loaded.signal() }
        loaded.wait()
        let listened = try times(runs) { _ = try waitForRead { page.getDocuments(completion: $0) } }
        let count = try waitForRead { books.getDocuments(completion: $0) }.count
        print("while \(count) documents are listened to: the page query \(Format.duration(Measure.median(listened)))"
              + " (median of \(runs); min \(Format.duration(listened.min()!)), max \(Format.duration(listened.max()!)))")
        collectionListener.remove()

        try measureListener(page, directory: directory, changes: runs)
    }

    /// Another program rewrites a document so that it enters the top of the page; the listener
    /// must deliver it. Each change sets a page count above every one in the collection (an
    /// earlier run on the same folder left its own there), and only changes delivered after the
    /// first snapshot count.
    private static func measureListener(_ page: Query, directory: URL, changes: Int) throws {
        let delivered = Locked<[Int: ContinuousClock.Instant]>([:])
        let highest = Locked<Int?>(nil)
        let first = DispatchSemaphore(value: 0)
        let registration = page.addSnapshotListener { snapshot, _ in
            guard let snapshot else { return }
            let now = ContinuousClock.now
            let pages = snapshot.documents.compactMap { $0.data()["numberOfPages"] as? Int }
            guard let floor = highest.withLock({ $0 }) else {
                highest.withLock { $0 = pages.max() ?? 0 }
                first.signal()
                return
            }
            delivered.withLock { seen in
                for count in pages where count > floor && seen[count] == nil { seen[count] = now }
            }
        }
        first.wait()
        let base = max(1_000_000, highest.withLock { $0 ?? 0 } + 1)
        defer { registration.remove() }
        let ids = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("books").path)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().prefix(changes)
        let span = Duration.milliseconds(600)

        let idleStart = Measure.cpuTime()
        Measure.sleep(span * changes)
        let idle = Measure.cpuTime() - idleStart

        var latencies: [Duration] = []
        let busyStart = Measure.cpuTime()
        for (index, name) in ids.enumerated() {
            let pages = base + index
            let written = try rewrite(directory.appendingPathComponent("books/\(name)"), pages: pages)
            let deadline = ContinuousClock.now + span
            Measure.sleep(until: deadline)
            if let at = delivered.withLock({ $0[pages] }) { latencies.append(at - written) }
        }
        let busy = Measure.cpuTime() - busyStart
        let perChange = (busy - idle) / changes
        let missed = ids.count - latencies.count
        print("listener on whereField.order.limit(20): delivery median \(latencies.isEmpty ? "n/a" : Format.duration(Measure.median(latencies)))"
              + ", CPU per change \(Format.duration(perChange)) (\(ids.count) changes, \(missed) not delivered within \(Format.duration(span)))")
    }

    /// Rewrites a book as an editor or a script would: a temporary file renamed over it.
    private static func rewrite(_ file: URL, pages: Int) throws -> ContinuousClock.Instant {
        var fields = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        fields["numberOfPages"] = pages
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".bench-edit.tmp")
        try data.write(to: temporary)
        let now = ContinuousClock.now
        guard rename(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return now
    }

    private static func times(_ runs: Int, _ body: () throws -> Void) rethrows -> [Duration] {
        try (0..<runs).map { _ in try Measure.time(body).1 }
    }
}

import DocumentStore
import Foundation

/// `shelf-bench pg DIR-or-URL COUNT [RUNS]`: the server figures on a store of COUNT documents in
/// `items` (a folder, `postgresql://…`, or `firestore://…`: a client of `shelf serve`), seeded in batches of 500 up to COUNT when fewer are
/// there. Prints medians of RUNS: the page queries (by id: the first page, one from the middle
/// backwards, a collection group's; an equality filter, `limit(to: 20)`, by id,
/// by a number field descending, and with a range on it; an `in` filter; a collection group;
/// two orders in two directions),
/// a range without a limit, a count, a sum and an average, one write, and how long a
/// change written by one client takes to reach another client's listener.
enum ServerBench {
    static let genres = ["fantasy", "history", "poetry", "science", "travel"]

    static func run(_ arguments: [String]) {
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: shelf-bench pg DIR-or-URL COUNT [RUNS]\n".utf8))
            exit(2)
        }
        let count = Arguments.number(arguments[1], for: "COUNT")
        let runs = arguments.count > 2 ? Arguments.number(arguments[2], for: "RUNS") : 20
        let url = arguments[0].contains("://") ? URL(string: arguments[0]) : URL(fileURLWithPath: arguments[0])
        guard let url else {
            FileHandle.standardError.write(Data("shelf-bench pg: \"\(arguments[0])\" is neither a folder nor a URL\n".utf8))
            exit(2)
        }
        do {
            try measure(url, count: count, runs: runs)
        } catch {
            FileHandle.standardError.write(Data("shelf-bench pg: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func open(_ url: URL, label: String) throws -> Firestore {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "shelf-bench.pg.\(label)")
        return try Firestore(url: url, settings: settings)
    }

    private static func measure(_ url: URL, count: Int, runs: Int) throws {
        let db = try open(url, label: "a")
        let items = db.collection("items")
        try seed(items, db: db, count: count)
        let fantasy = items.whereField("genre", isEqualTo: "fantasy")
        let queries: [(String, Query)] = [
            ("by id, limit 20", items.limit(to: 20)),
            ("by id descending, after the middle, limit 20",
             items.order(by: FieldPath.documentID(), descending: true).start(after: [String(format: "i%07d", count / 2)]).limit(to: 20)),
            ("collection group items, by path, limit 20", db.collectionGroup("items").limit(to: 20)),
            ("genre == fantasy, by id, limit 20", fantasy.limit(to: 20)),
            ("genre == fantasy, by rating descending, limit 20", fantasy.order(by: "rating", descending: true).limit(to: 20)),
            ("genre == fantasy, rating < 2.5, by rating descending, limit 20",
             fantasy.whereField("rating", isLessThan: 2.5).order(by: "rating", descending: true).limit(to: 20)),
            ("genre in [fantasy, poetry], by rating descending, limit 20",
             items.whereField("genre", in: ["fantasy", "poetry"]).order(by: "rating", descending: true).limit(to: 20)),
            ("collection group items, by rating, limit 20", db.collectionGroup("items").order(by: "rating").limit(to: 20)),
            ("by genre, then rating descending, limit 20", items.order(by: "genre").order(by: "rating", descending: true).limit(to: 20)),
            ("rating >= 4.99, no limit", items.whereField("rating", isGreaterThanOrEqualTo: 4.99)),
        ]
        for (name, query) in queries {
            let durations = try times(runs) { _ = try waitForRead { query.getDocuments(completion: $0) } }
            print("\(name): \(Format.duration(Measure.median(durations)))")
        }
        let counts = try times(runs) { _ = try waitForCount(fantasy.count) }
        print("count of genre == fantasy (\(try waitForCount(fantasy.count))): \(Format.duration(Measure.median(counts)))")
        // Whole numbers add up in SQL; fractions are added by the client, in Firestore's order.
        for field in ["pages", "rating"] {
            let sums = fantasy.aggregate([.sum(field), .average(field)])
            let summed = try times(runs) { _ = try waitForAggregation(sums) }
            print("sum and average of \(field) where genre == fantasy: \(Format.duration(Measure.median(summed)))")
        }
        var written = 0
        let writes = try times(runs) {
            written += 1
            try db.document("bench/write").write(["genre": "bench", "rating": written])
        }
        print("one write: \(Format.duration(Measure.median(writes)))")
        let reads = try times(runs) { _ = try db.document("bench/write").readDocument() }
        print("one document read: \(Format.duration(Measure.median(reads)))")
        print("a change seen by another client's listener: \(Format.duration(Measure.median(try deliveries(url, runs: runs))))")
        print("(medians of \(runs) runs, \(Format.count(count)) documents, \(url.scheme == "file" ? "a folder" : url.scheme == "firestore" ? "a Firestore server" : "PostgreSQL"))")
    }

    /// Adds documents `items/i0000000…` until there are `count`.
    private static func seed(_ items: CollectionReference, db: Firestore, count: Int) throws {
        var have = try waitForCount(items.count)
        guard have < count else { return }
        let start = ContinuousClock.now
        var random = SystemRandomNumberGenerator()
        while have < count {
            let batch = db.batch()
            for index in have..<min(have + 500, count) {
                let data: [String: Any] = ["genre": genres[index % genres.count], "title": "Book \(index)", "pages": 50 + index % 1000,
                                           "rating": Double(Int.random(in: 0...50_000, using: &random)) / 10_000]
                batch.setData(data, forDocument: items.document(String(format: "i%07d", index)))
            }
            try batch.commitNow()
            have = min(have + 500, count)
        }
        print("seeded to \(Format.count(count)) documents in \(Format.duration(ContinuousClock.now - start))")
    }

    /// Client B writes a document that client A listens to; from B's write call (so the
    /// commit's own time is included) to A's snapshot with the value.
    private static func deliveries(_ url: URL, runs: Int) throws -> [Duration] {
        let listening = try open(url, label: "listener"), writing = try open(url, label: "writer")
        let seen = Locked<[Int: ContinuousClock.Instant]>([:])
        let arrived = DispatchSemaphore(value: 0)
        let registration = listening.document("bench/live").addSnapshotListener { snapshot, _ in
            guard let value = snapshot?.data()?["n"] as? Int else { return }
            seen.withLock { $0[value] = .now }
            arrived.signal()
        }
        defer { registration.remove() }
        let base = Int.random(in: 1...1_000_000_000)
        var durations: [Duration] = []
        for run in 0..<runs {
            let committed = ContinuousClock.now
            try writing.document("bench/live").write(["n": base + run])
            while seen.withLock({ $0[base + run] }) == nil {
                guard arrived.wait(timeout: .now() + 10) == .success else {
                    throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "no delivery within 10 s"])
                }
            }
            durations.append(seen.withLock { $0[base + run]! } - committed)
        }
        return durations
    }

    private static func waitForCount(_ query: AggregateQuery) throws -> Int {
        try waitForAggregation(query).count.intValue
    }

    private static func waitForAggregation(_ query: AggregateQuery) throws -> AggregateQuerySnapshot {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Locked<Result<AggregateQuerySnapshot, Error>?>(nil)
        query.getAggregation(source: .server) { snapshot, error in
            result.withLock { $0 = snapshot.map { .success($0) } ?? .failure(error!) }
            semaphore.signal()
        }
        semaphore.wait()
        return try result.withLock { $0! }.get()
    }

    private static func times(_ runs: Int, _ body: () throws -> Void) rethrows -> [Duration] {
        try (0..<runs).map { _ in try Measure.time(body).1 }
    }
}

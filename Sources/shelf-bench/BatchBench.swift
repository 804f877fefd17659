import DocumentStore
import Foundation

/// `shelf-bench batches`: what a batch commit of 500 small documents costs with each durability
/// barrier, and how many transactions commit per second, alone and contended.
///
///     shelf-bench batches [--dir PATH] [--commits N] [--transactions N]
///
/// Each barrier runs in its own child process (`batch-commits`), since the store reads
/// `SHELF_DURABILITY_BARRIER` once.
enum BatchBench {
    static let documents = 500

    static func run(_ arguments: [String]) {
        var parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var commits = 30
        var transactions = 200
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(option) needs a value") }
            switch option {
            case "--dir": parent = value
            case "--commits": commits = Arguments.number(value, for: option)
            case "--transactions": transactions = Arguments.number(value, for: option, minimum: 8)
            default: fail("unknown option \(option)")
            }
        }
        TemporaryFolders.shared.removeOnSignals()
        print("shelf-bench batches: batch commits and transactions")
        #if DEBUG
        print("  WARNING: a debug build; figures mean little. Use `swift run -c release shelf-bench batches`.")
        #endif
        for line in MachineFacts(folder: parent).lines { print("  " + line) }
        print("  load        \((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown") (other programs share the disk)")
        print("")
        print("Batch commit of \(documents) small documents (~200 bytes each), overwriting existing ones; \(commits) commits per row")
        var table = Table([["barrier"], ["median"], ["p10", ""], ["p90", ""], ["min", ""], ["max", ""], ["first commit", "(new files)"], ["one document", "median"]])
        do {
            for barrier in ["syncfs", "fsync-each", "sync"] {
                let folder = try TemporaryFolders.shared.make(in: parent, label: "batch-\(barrier)")
                defer { TemporaryFolders.shared.remove(folder) }
                let lines = try child(["batch-commits", folder + "/data", "--commits", "\(commits)"], environment: ["SHELF_DURABILITY_BARRIER": barrier])
                func durations(_ key: String) -> [Duration] {
                    lines.compactMap { line in
                        let parts = line.split(separator: " ")
                        guard parts.count == 2, parts[0] == key, let ns = Int64(parts[1]) else { return nil }
                        return .nanoseconds(ns)
                    }
                }
                let batchTimes = durations("batch")
                guard !batchTimes.isEmpty, let first = durations("first").first else { throw BenchError("batch-commits printed nothing for \(barrier)") }
                table.add([barrier + (barrier == "syncfs" ? " (default)" : ""), Format.duration(Measure.median(batchTimes)),
                           Format.duration(Measure.percentile(batchTimes, 0.1)), Format.duration(Measure.percentile(batchTimes, 0.9)),
                           Format.duration(batchTimes.min()!), Format.duration(batchTimes.max()!), Format.duration(first),
                           Format.duration(Measure.median(durations("single")))])
            }
            print(table.render())
            print("")
            try transactionFigures(parent: parent, count: transactions)
        } catch {
            FileHandle.standardError.write(Data("shelf-bench batches: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The child: `batch-commits DIR --commits N` prints `first NS`, then `batch NS` per
    /// commit, then `single NS` per one-document commit.
    static func runCommits(_ arguments: [String]) {
        guard arguments.count == 3, arguments[1] == "--commits", let commits = Int(arguments[2]) else { fail("usage: batch-commits DIR --commits N") }
        do {
            let db = try Firestore(directory: URL(fileURLWithPath: arguments[0]))
            let books = db.collection("books")
            func commit(_ round: Int) throws -> Duration {
                let batch = db.batch()
                for index in 0..<documents {
                    batch.setData(["title": "Book \(index)", "author": "Author \(index % 37)", "numberOfPages": 100 + index,
                                   "round": round, "genre": "Fiction"], forDocument: books.document("book-\(index)"))
                }
                return try Measure.time { try batch.commitNow() }.1
            }
            print("first \(try commit(0).nanoseconds)")
            for round in 1...commits { print("batch \(try commit(round).nanoseconds)") }
            for round in 0..<commits {
                let time = try Measure.time { try books.document("single").write(["round": round]) }.1
                print("single \(time.nanoseconds)")
            }
        } catch {
            fail("\(error)")
        }
    }

    // MARK: Transactions

    private static func transactionFigures(parent: String, count: Int) throws {
        print("Transactions (each reads one document and writes two: the quickstart's rating; a commit of two documents goes through the journal)")
        var table = Table([["run"], ["transactions"], ["seconds"], ["commits / s"], ["aborted", "(run again)"]])

        let folder = try TemporaryFolders.shared.make(in: parent, label: "transactions")
        defer { TemporaryFolders.shared.remove(folder) }
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "batches.callbacks")  // the main thread waits
        let db = try Firestore(directory: URL(fileURLWithPath: folder + "/data"), settings: settings)
        func restaurant(_ id: String) throws -> DocumentReference {
            let reference = db.document("restaurants/\(id)")
            try reference.write(["name": "Bench \(id)", "numRatings": 0, "avgRating": 0.0])
            return reference
        }
        func row(_ name: String, _ total: Int, _ aborted: Int, _ time: Duration) {
            table.add([name, "\(total)", Format.duration(time), Format.significant(Double(total) / time.seconds), "\(aborted)"])
        }

        let alone = try restaurant("alone")
        let (aloneResult, aloneTime) = Measure.time { RatingLoop.rate(db: db, restaurant: alone, ratings: Array(0..<count), threads: 1) }
        if let failure = aloneResult.failure { throw failure }
        row("1 thread, uncontended", count, aloneResult.aborted, aloneTime)

        let contended = try restaurant("contended")
        let (threadsResult, threadsTime) = Measure.time { RatingLoop.rate(db: db, restaurant: contended, ratings: Array(0..<count), threads: 4) }
        if let failure = threadsResult.failure { throw failure }
        row("4 threads, one document", count, threadsResult.aborted, threadsTime)

        _ = try restaurant("processes")
        let (outputs, processesTime) = try Measure.time { () throws -> [[String]] in
            let halves = [0, count / 2]
            let children = try halves.map { first in
                try start(["rate", folder + "/data", "--restaurant", "restaurants/processes", "--count", "\(count / 2)", "--threads", "4", "--first", "\(first)"])
            }
            return try children.map { try finish($0) }
        }
        let aborted = outputs.flatMap { $0 }.compactMap { line -> Int? in
            let parts = line.split(separator: " ")
            guard parts.count >= 4, parts[2] == "aborted" else { return nil }
            return Int(parts[3])
        }.reduce(0, +)
        row("2 processes × 4 threads", count / 2 * 2, aborted, processesTime)
        print(table.render())
        let numRatings = waitFor { done in
            db.document("restaurants/processes").getDocument(completion: { snapshot, _ in done(snapshot?.get("numRatings").map { "\($0)" } ?? "none") })
        }
        let ratings = waitFor { done in
            db.collection("restaurants/processes/ratings").getDocuments(completion: { snapshot, _ in done(snapshot?.count ?? -1) })
        }
        print("  after the two processes: numRatings \(numRatings), ratings documents \(ratings) (each must be \(count / 2 * 2))")
        print("  aborted: transactions that lost to other writers maxAttempts (5) times and were run again by the caller.")
    }

    /// Calls `body` and waits until it calls back.
    static func waitFor<T>(_ body: (@escaping @Sendable (T) -> Void) -> Void) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Locked<T?>(nil)
        body { value in
            result.withLock { $0 = value }
            semaphore.signal()
        }
        semaphore.wait()
        return result.withLock { $0 }!
    }

    // MARK: Child processes

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return (process, pipe)
    }

    static func finish(_ child: (Process, Pipe)) throws -> [String] {
        let output = child.1.fileHandleForReading.readDataToEndOfFile()
        child.0.waitUntilExit()
        guard child.0.terminationStatus == 0 else {
            throw BenchError("\(child.0.arguments?.first ?? "child") exited with status \(child.0.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func child(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
        try finish(try start(arguments, environment: environment))
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("shelf-bench: " + message + "\n").utf8))
        exit(2)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

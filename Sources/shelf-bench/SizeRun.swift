import DocumentStore
import Foundation

/// Measures one collection size in its own fresh folder, printing each figure as it comes.
struct SizeRun {
    let size: Int
    let options: BenchOptions
    /// Mean cost of one durable write seen at the previous (smaller) size, to decide whether
    /// writing this size one by one fits the budget.
    let previousWriteMean: Duration?

    /// Documents one tick `fstatat`s besides the recently changed ones: CollectionFolderChanges's
    /// budgets (internal to DocumentStore, so repeated here): a collection
    /// of up to `statBudget` documents is stat'ed whole every tick, a larger one
    /// `largeCollectionStatBudget` files a tick.
    static let statBudget = 1_000
    static let largeCollectionStatBudget = 500

    /// Ticks for the sweep to reach every file of a collection of `size` documents.
    static func sweepTicks(_ size: Int) -> Int {
        size <= statBudget ? 1 : (size + largeCollectionStatBudget - 1) / largeCollectionStatBudget
    }
    /// CollectionFolderChanges's `hotWindow`: files changed within it are checked every tick. The
    /// first scan counts every document as changed, so the steady state starts after it.
    static let hotWindow: Duration = .seconds(60)
    /// CollectionFolderChanges's `racyWindow`.
    static let racyWindow: Duration = .seconds(1)

    private var interval: Duration { .nanoseconds(Int64(options.interval * 1e9)) }

    func run(in folder: String) throws -> SizeResult {
        var result = SizeResult(size: size)
        var factory = BookFactory(seed: 0x5E1F + UInt64(size))
        var random = SplitMix64(seed: 0xBE4C + UInt64(size))
        let books = factory.makeBooks(size)

        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "shelf-bench.callbacks")
        settings.pollingInterval = options.interval
        let db = try Firestore(directory: URL(fileURLWithPath: folder + "/data"), settings: settings)
        let collection = db.collection("books")
        let booksFolder = folder + "/data/books"

        // Writing all N.
        try write(books, to: collection, folder: booksFolder, into: &result)

        // One more into the full collection, then those removed again (not timed).
        let extra = (0..<options.singleWrites).map { _ in (id: factory.makeID(), book: factory.makeBook()) }
        for (id, book) in extra {
            let (_, elapsed) = try Measure.time { try collection.document(id).write(book) }
            result.oneMore.append(elapsed)
        }
        for (id, _) in extra { try collection.document(id).deleteDocument() }
        say("one more write into the full collection (median of \(extra.count)): \(Format.duration(Measure.median(result.oneMore)))"
            + ", min \(Format.duration(result.oneMore.min()!)), max \(Format.duration(result.oneMore.max()!))")

        // Reading all N.
        for run in 0..<3 {
            let (count, elapsed, decode) = try readAll(collection, decode: run == 2)
            guard count == size else { throw BenchError("getDocuments returned \(count) documents, expected \(size)") }
            result.reads.append(elapsed)
            if let decode { result.decode = decode }
        }
        say("getDocuments() of \(Format.count(size)) (median of 3): \(Format.duration(Measure.median(result.reads)))"
            + " [runs: \(result.reads.map(Format.duration).joined(separator: ", "))]"
            + "; decoding them all as Book: \(Format.duration(result.decode)) more")

        // Idle, no listener: the baseline to subtract, once the process is quiet. Freeing the reads'
        // 100,000 documents goes on in the background for seconds (glibc consolidates the arenas
        // of the threads that read them as those threads end), which is no polling cost.
        settle()
        result.baseline = idle()
        say("idle without a listener: \(Format.duration(result.baseline.cpu)) CPU in \(Format.duration(result.baseline.wall))")

        // The first snapshot, three times; the third listener stays.
        var kept: (registration: ListenerRegistration, log: DeliveryLog, firstAt: ContinuousClock.Instant)?
        for run in 0..<3 {
            let log = DeliveryLog()
            let start = ContinuousClock.now
            let registration = collection.addSnapshotListener { snapshot, error in log.record(snapshot, error) }
            guard let first = log.waitForFirstSnapshot(timeout: .seconds(300)) else {
                throw BenchError("no first snapshot within 300 s")
            }
            guard first.count == size else { throw BenchError("the first snapshot has \(first.count) documents, expected \(size)") }
            result.firstSnapshots.append(first.at - start)
            if run < 2 { registration.remove() } else { kept = (registration, log, first.at) }
        }
        let (registration, log, firstAt) = kept!
        defer { registration.remove() }
        say("first snapshot (median of 3): \(Format.duration(Measure.median(result.firstSnapshots)))"
            + " [runs: \(result.firstSnapshots.map(Format.duration).joined(separator: ", "))]")

        // Idle with the listener: in its first minute, then in the steady state.
        Measure.sleep(until: firstAt + Self.racyWindow + .milliseconds(500))
        result.firstMinute = idle()
        say("idle listener, first minute: \(Format.duration(result.firstMinute.cpu)) CPU in \(Format.duration(result.firstMinute.wall))"
            + " = \(Format.percent(result.firstMinute.share)) of a core")
        let steadyFrom = firstAt + Self.hotWindow + Self.racyWindow + .milliseconds(500)
        say("waiting \(Format.duration(steadyFrom - .now)) for the watcher's \(Format.duration(Self.hotWindow)) hot window to pass…")
        Measure.sleep(until: steadyFrom)
        result.steady = idle()
        let net = result.steady.share - result.baseline.share
        say("idle listener, steady: \(Format.duration(result.steady.cpu)) CPU in \(Format.duration(result.steady.wall))"
            + " = \(Format.percent(result.steady.share)) of a core, \(Format.percent(net)) net of the baseline"
            + " = \(Format.duration(.nanoseconds(Int64(net * options.interval * 1e9)))) per tick")

        // External edits, as other programs make them.
        let editor = ExternalEditor(folder: booksFolder)
        let quick: Duration = interval * 12
        var untouched = books.map(\.id).shuffled(using: &random)
        let created = (0..<options.trials).map { _ in (id: factory.makeID(), book: factory.makeBook()) }
        let changesCPU = Measure.cpuTime(), changesStart = ContinuousClock.now
        for (id, book) in created {
            try trial(.added, of: id, log: log, timeout: quick, random: &random, into: &result.created, missed: &result.missed["create"]) {
                try editor.create(id, book)
            }
        }
        for _ in 0..<options.trials {
            let id = untouched.removeLast()
            let book = factory.makeBook()
            try trial(.modified, of: id, log: log, timeout: quick, random: &random, into: &result.replaced, missed: &result.missed["replace"]) {
                try editor.replace(id, book)
            }
        }
        for (id, _) in created {
            try trial(.removed, of: id, log: log, timeout: quick, random: &random, into: &result.deleted, missed: &result.missed["delete"]) {
                try editor.delete(id)
            }
        }
        // What the changes cost beyond idle polling: CPU over the trials minus the steady idle rate.
        let changesWall = ContinuousClock.now - changesStart
        let changesNet = (Measure.cpuTime() - changesCPU) - changesWall * result.steady.share
        result.cpuPerChange = changesNet / (3 * options.trials)
        say("create → .added: " + summary(result.created) + "; replace by rename → .modified: " + summary(result.replaced)
            + "; delete → .removed: " + summary(result.deleted))
        say("CPU per external change, net of idle polling: \(Format.duration(result.cpuPerChange))"
            + " (\(Format.duration(changesNet)) over \(3 * options.trials) changes in \(Format.duration(changesWall)))")

        // In place: started 2.4 to 4.4 intervals apart; in a large collection they overlap,
        // each timed from its own edit.
        let ticksPerSweep = Self.sweepTicks(size)
        result.sweepWorst = interval * ticksPerSweep
        var edits: [(id: String, at: ContinuousClock.Instant)] = []
        for _ in 0..<options.trials {
            Measure.sleep(interval * Double.random(in: 2.4..<4.4, using: &random))
            let id = untouched.removeLast()
            edits.append((id, try editor.editInPlace(id)))
        }
        for (id, at) in edits {
            let deadline = at + result.sweepWorst * 2 + interval * 8
            if let delivered = log.waitFor(.modified, of: id, timeout: deadline - .now) {
                result.editedInPlace.append(delivered - at)
            } else {
                result.missed["in place", default: 0] += 1
            }
        }
        say("in-place edit → .modified: " + summary(result.editedInPlace)
            + "; worst-case sweep \(ticksPerSweep) ticks × \(Format.duration(interval))"
            + " = \(Format.duration(result.sweepWorst))")

        if !log.deliveredErrors.isEmpty {
            throw BenchError("the listener reported errors: \(log.deliveredErrors.joined(separator: "; "))")
        }
        result.memoryWithListener = Measure.currentMemory()
        registration.remove()
        result.peakMemory = Measure.peakMemory()
        say("memory: \(result.memoryWithListener.map { Format.bytes($0) + " resident with the listener, " } ?? "")"
            + "peak \(Format.bytes(result.peakMemory))")
        return result
    }

    // MARK: Steps

    /// Writes all N durably one by one if that fits the budget; otherwise seeds all but a
    /// sample in bulk and writes the sample durably into the nearly full collection.
    private func write(_ books: [(id: String, book: Book)], to collection: CollectionReference, folder: String,
                       into result: inout SizeResult) throws {
        func durable(_ slice: ArraySlice<(id: String, book: Book)>) throws -> Duration {
            let start = ContinuousClock.now
            for (id, book) in slice {
                let began = ContinuousClock.now
                try collection.document(id).write(book)
                result.writes.append(.now - began)
            }
            return .now - start
        }
        // The first 1,000 (or all) tell what the rest would cost.
        let probe = min(size, 1_000)
        let probeTime = try durable(books[..<probe])
        let mean = max(probeTime / probe, previousWriteMean ?? .zero)
        let projected = mean * size
        if size == probe || projected.seconds <= options.writeBudget {
            if size > probe {
                say("writing \(Format.count(size)) durably one by one (projected \(Format.duration(projected)))…")
            }
            result.writeAll = probeTime + (size > probe ? try durable(books[probe...]) : .zero)
            result.writing = .durable
            say("wrote \(Format.count(size)) with setData(from:): \(Format.duration(result.writeAll)); per write "
                + writeSummary(result.writes))
            return
        }
        let sample = min(options.writeSample, size - probe)
        say("\(Format.count(size)) durable writes would take about \(Format.duration(projected)) (\(Format.duration(mean)) each over the first"
            + " \(Format.count(probe))), over the \(Format.duration(.seconds(options.writeBudget))) budget:"
            + " seeding \(Format.count(size - probe - sample)) files in bulk, then \(Format.count(sample)) durable writes")
        result.writes = []
        let (_, seeding) = try Measure.time { try BookFile.seed(books[probe..<(size - sample)], into: folder) }
        let sampleTime = try durable(books[(size - sample)...])
        result.writing = .sampled(sample: sample, seeding: seeding)
        result.writeAll = sampleTime / sample * size
        say("seeded \(Format.count(size - probe - sample)) files (plain writes + one syncfs): \(Format.duration(seeding)) — seeding, not a write figure")
        say("\(Format.count(sample)) durable writes into the collection of \(Format.count(size - sample))+: \(Format.duration(sampleTime));"
            + " per write " + writeSummary(result.writes)
            + "; all \(Format.count(size)) extrapolated: ~\(Format.duration(result.writeAll)) (est.)")
    }

    /// One `getDocuments()`, timed inside the task; optionally decoding every document too.
    private func readAll(_ collection: CollectionReference, decode: Bool) throws -> (Int, Duration, Duration?) {
        try blocking {
            let start = ContinuousClock.now
            let snapshot = try await collection.getDocuments()
            let read = ContinuousClock.now - start
            guard decode else { return (snapshot.count, read, nil) }
            let (books, decoding) = try Measure.time { try snapshot.documents.map { try $0.data(as: Book.self) } }
            guard books.count == snapshot.count, books.allSatisfy({ $0.id != nil }) else {
                throw BenchError("decoding lost documents or their ids")
            }
            return (snapshot.count, read, decoding)
        }
    }

    /// Waits, up to 20 s, for three seconds in a row in which the process uses under 1 ms of CPU each.
    private func settle() {
        let deadline = ContinuousClock.now + .seconds(20)
        var quiet = 0
        while quiet < 3 && ContinuousClock.now < deadline {
            let cpu = Measure.cpuTime()
            Measure.sleep(.seconds(1))
            quiet = Measure.cpuTime() - cpu < .milliseconds(1) ? quiet + 1 : 0
        }
    }

    /// CPU time over `ticks` polling intervals of doing nothing.
    private func idle() -> SizeResult.Idle {
        let cpu = Measure.cpuTime(), start = ContinuousClock.now
        Measure.sleep(until: start + interval * options.ticks)
        return SizeResult.Idle(cpu: Measure.cpuTime() - cpu, wall: .now - start)
    }

    /// One external edit at a random phase of the polling cycle, timed to its delivery.
    private func trial(_ type: DocumentChangeType, of id: String, log: DeliveryLog, timeout: Duration,
                       random: inout SplitMix64, into delays: inout [Duration], missed: inout Int?,
                       _ edit: () throws -> ContinuousClock.Instant) throws {
        Measure.sleep(interval * Double.random(in: 0.2..<1.2, using: &random))
        let at = try edit()
        if let delivered = log.waitFor(type, of: id, timeout: timeout) {
            delays.append(delivered - at)
        } else {
            missed = (missed ?? 0) + 1
        }
    }

    private func summary(_ delays: [Duration]) -> String {
        guard !delays.isEmpty else { return "none delivered" }
        return "median \(Format.duration(Measure.median(delays))), max \(Format.duration(delays.max()!)) (\(delays.count))"
    }

    private func writeSummary(_ writes: [Duration]) -> String {
        "median \(Format.duration(Measure.median(writes))), p99 \(Format.duration(Measure.percentile(writes, 0.99)))"
            + ", max \(Format.duration(writes.max()!))"
    }
}

/// Prints one progress line at once (stdout may be a pipe).
func say(_ line: String) {
    print("  " + line)
    fflush(nil)  // every stream: stdout may be a pipe
}

/// Runs async work from synchronous code and waits for it.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// Carries a result from a task to the thread waiting for it (the semaphore orders the accesses).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

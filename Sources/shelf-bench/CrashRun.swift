import DocumentStore
import Foundation

/// `shelf-bench crash-run`: the batch crash test at length, for the README's figures.
///
///     shelf-bench crash-run [--kills N] [--batch N] [--dir PATH]
///
/// Starts `write-loop --batch N` (default 50) over and over and SIGKILLs it, N times (default
/// 1,000): one kill in three at a random moment, two aimed at the moments just after a commit
/// point (the journal has appeared: the batch is being applied), while a `read-loop` in another
/// process checks every read and snapshot. After each kill it looks at the files as they are
/// (a mix of batches must come with a committed journal, which recovery rolls forward), then
/// reads through the store, which must show one whole batch, never older than before.
enum CrashRun {
    static func run(_ arguments: [String]) {
        var kills = 1_000
        var size = 50
        var parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(option) needs a value") }
            switch option {
            case "--kills": kills = Arguments.number(value, for: option)
            case "--batch": size = Arguments.number(value, for: option)
            case "--dir": parent = value
            default: fail("unknown option \(option)")
            }
        }
        TemporaryFolders.shared.removeOnSignals()
        do {
            let folder = try TemporaryFolders.shared.make(in: parent, label: "crash")
            defer { TemporaryFolders.shared.remove(folder) }
            let summary = try killLoop(folder: folder, kills: kills, size: size)
            print(summary)
        } catch {
            FileHandle.standardError.write(Data("shelf-bench crash-run: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func killLoop(folder: String, kills: Int, size: Int) throws -> String {
        let data = folder + "/data"
        let stop = folder + "/stop"
        let started = ContinuousClock.now
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "crash-run.callbacks")
        let db = try Firestore(directory: URL(fileURLWithPath: data), settings: settings)
        let reader = try BatchBench.start(["read-loop", data, "--batch", "\(size)", "--until", stop])
        var counts: [String: Int] = [:]
        var last = 0
        var random = SystemRandomNumberGenerator()
        for round in 1...kills {
            let (writer, _) = try BatchBench.start(["write-loop", data, "--batch", "\(size)"])
            if round % 3 != 0 {
                // Aimed: just after a commit point, while the batch is being applied.
                let deadline = ContinuousClock.now + .seconds(2)
                while access(data + "/.shelf/journal", F_OK) != 0 && ContinuousClock.now < deadline { usleep(50) }
                usleep(UInt32.random(in: 0...800, using: &random))
            } else {
                usleep(UInt32.random(in: 10_000...250_000, using: &random))
            }
            // The reader would roll a journal forward at once: pause it to see the files as the kill left them.
            kill(reader.0.processIdentifier, SIGSTOP)
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            guard writer.terminationReason == .uncaughtSignal else {
                throw BenchError("round \(round): the write loop exited by itself (status \(writer.terminationStatus))")
            }
            let state = try RawBatchState(data: data)
            kill(reader.0.processIdentifier, SIGCONT)
            counts[state.kind, default: 0] += 1
            if state.isMixed && !state.hasCommittedJournal {
                throw BenchError("round \(round): the files hold batches \(state.batches.sorted()) with no committed journal to complete them")
            }
            let snapshot = try Self.documents(db)
            guard let batch = try BatchPattern.check(snapshot, documentsPerBatch: size) else { continue }
            if batch < last { throw BenchError("round \(round): the store went back from batch \(last) to \(batch)") }
            if let journalBatch = state.journalMax, batch < journalBatch {
                throw BenchError("round \(round): a committed journal held batch \(journalBatch) but the store shows \(batch)")
            }
            last = batch
        }
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        let readerOutput = try BatchBench.finish(reader)
        let kinds = counts.sorted { $0.key < $1.key }.map { "    \($0.key): \($0.value)" }.joined(separator: "\n")
        return """
            crash-run: \(kills) SIGKILLs of a writer committing batches of \(size) documents (+1 created or deleted), in \(Format.duration(.now - started))
              no partial batch seen: after each kill through the store (\(kills) checks), and by a reader process: \(readerOutput.joined(separator: " "))
              last batch \(last); where the kills landed, as the files showed right after each:
            \(kinds)
            """
    }

    private static func documents(_ db: Firestore) throws -> [QueryDocumentSnapshot] {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Locked<Result<[QueryDocumentSnapshot], Error>>(.success([]))
        db.collection(BatchPattern.collection).getDocuments(completion: { snapshot, error in
            result.withLock { $0 = snapshot.map { .success($0.documents) } ?? .failure(error ?? BenchError("no snapshot")) }
            semaphore.signal()
        })
        semaphore.wait()
        return try result.withLock { $0 }.get()
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("shelf-bench crash-run: " + message + "\n").utf8))
        exit(2)
    }
}

/// The batch documents as the files hold them, read without the store (so without recovery).
struct RawBatchState {
    var batches: Set<Int> = []
    var hasCommittedJournal: Bool
    var hasUncommittedJournal: Bool
    /// The batch the committed journal's `odd` or documents carry, when it can be told.
    var journalMax: Int?

    init(data: String) throws {
        let folder = data + "/" + BatchPattern.collection
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".json") && !name.hasPrefix(".") {
            guard let bytes = FileManager.default.contents(atPath: folder + "/" + name),
                  let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                  let batch = (object["batch"] as? NSNumber)?.intValue else {
                throw BenchError("\(folder)/\(name) is not a whole batch document")
            }
            if name != BatchPattern.odd + ".json" { batches.insert(batch) }
        }
        hasCommittedJournal = FileManager.default.fileExists(atPath: data + "/.shelf/journal")
        hasUncommittedJournal = FileManager.default.fileExists(atPath: data + "/.shelf/journal.tmp")
        if hasCommittedJournal, let bytes = FileManager.default.contents(atPath: data + "/.shelf/journal") {
            // The journal is binary; the documents' JSON inside it carries `"batch" : N`.
            let text = String(decoding: bytes, as: UTF8.self)
            journalMax = text.components(separatedBy: "\"batch\":").dropFirst().compactMap {
                Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
            }.max()
        }
    }

    var isMixed: Bool { batches.count > 1 }

    var kind: String {
        switch (hasCommittedJournal, hasUncommittedJournal, isMixed) {
        case (true, _, true): return "mid-apply (files of two batches, committed journal): rolled forward"
        case (true, _, false): return "after the commit point, before the journal was removed: rolled forward"
        case (false, true, _): return "before the commit point (journal.tmp): discarded"
        case (false, false, _): return "between commits, or before the journal was written"
        }
    }
}

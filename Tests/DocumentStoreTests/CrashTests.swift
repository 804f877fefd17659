@testable import DocumentStore
import Foundation
import XCTest

/// Point 4 across processes: `shelf-bench write-loop` writes large documents in a loop; killed
/// with SIGKILL at random moments it leaves every document old or new, never partial, and no
/// file that is read as a document. Two processes writing one collection lose nothing.
/// Killed while committing batches of 50, it never leaves a partial batch for
/// the store's readers, in this process or another. Two in three of those writers stop
/// themselves at a failpoint inside the apply, so the window is hit however the machine
/// schedules them; the rest are stopped at random moments.
final class CrashTests: StoreTestCase {
    struct ShelfBenchNotFound: Error, CustomStringConvertible {
        var description: String {
            "the shelf-bench executable was not found next to the test bundle (\(Bundle.main.bundleURL.path)) or in .build/debug; "
                + "`swift test` builds it with the tests, so this test cannot check crashes without it"
        }
    }

    /// Fails the test (never skips it) when the executable is missing.
    private func shelfBench() throws -> URL {
        guard let executable = ShelfBench.executable() else { throw ShelfBenchNotFound() }
        return executable
    }

    func testSIGKILLAtRandomMomentsLeavesOnlyCompleteDocuments() async throws {
        let executable = try shelfBench()
        var random = SystemRandomNumberGenerator()
        var sequencesSeen: Set<Int> = []
        for round in 1...20 {
            let child = try ShelfBench.WriteLoop(executable: executable, directory: store.root)
            usleep(UInt32.random(in: 100_000...450_000, using: &random))
            guard child.process.isRunning else {
                child.process.waitUntilExit()
                return XCTFail("round \(round): the write loop stopped by itself (status \(child.process.terminationStatus)): \(child.failureOutput)")
            }
            child.killHard()
            XCTAssertEqual(child.process.terminationReason, .uncaughtSignal, "round \(round)")
            XCTAssertEqual(child.process.terminationStatus, SIGKILL, "round \(round)")

            let names = store.fileNames(in: "crash")
            let documentNames = names.filter { !$0.hasPrefix(".") }
            for name in names where name.hasPrefix(".") {
                XCTAssertTrue(name.hasPrefix(".shelf-") && name.hasSuffix(".tmp"), "round \(round): unexpected file \(name)")
            }
            XCTAssertTrue(Set(documentNames).isSubset(of: ["doc-0.json", "doc-1.json", "doc-2.json", "doc-3.json"]),
                          "round \(round): \(documentNames)")
            for name in documentNames {
                let bytes = try XCTUnwrap(store.readBytes("crash/" + name))
                if let problem = ShelfBench.problem(with: bytes) {
                    XCTFail("round \(round): crash/\(name) is partial: \(problem)")
                }
            }
            // The store reads exactly those documents, every one of them whole.
            let snapshot = try await db.collection("crash").getDocuments()
            XCTAssertEqual(snapshot.ids, documentNames.map { String($0.dropLast(5)) }, "round \(round)")
            for document in snapshot.documents {
                XCTAssertNil(document.readError, "round \(round): \(document.documentID)")
                if let sequence = document.get("sequence") as? Int { sequencesSeen.insert(sequence) }
            }
        }
        XCTAssertFalse(sequencesSeen.isEmpty, "the write loop never completed a write in 20 rounds")

        // Leftover temporary files are invisible to a listener too.
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("crash").addSnapshotListener(recorder.listener))
        let first = recorder.snapshot(1)
        XCTAssertEqual(first?.ids, store.fileNames(in: "crash").filter { !$0.hasPrefix(".") }.map { String($0.dropLast(5)) })
    }

    func testTwoProcessesWritingOneCollectionLoseNothing() async throws {
        let executable = try shelfBench()
        let writers = try ["a", "b"].map { prefix in
            try ShelfBench.WriteLoop(executable: executable, directory: store.root,
                                     arguments: ["--prefix", prefix, "--documents", "25", "--writes", "25", "--counter", "shared"])
        }
        for writer in writers {
            writer.process.waitUntilExit()
            XCTAssertEqual(writer.process.terminationStatus, 0, writer.failureOutput)
        }
        let snapshot = try await db.collection("crash").getDocuments()
        let expected = ["shared"] + (0..<25).flatMap { ["a-\($0)", "b-\($0)"] }
        XCTAssertEqual(snapshot.ids.sorted(), expected.sorted())
        for document in snapshot.documents where document.documentID != "shared" {
            let bytes = try XCTUnwrap(store.readBytes("crash/\(document.documentID).json"))
            XCTAssertNil(ShelfBench.problem(with: bytes), document.documentID)
            XCTAssertEqual(document.get("sequence") as? Int, Int(document.documentID.dropFirst(2)))
        }
        // Both processes incremented one counter under the folder's lock: no increment lost.
        let shared = try await db.document("crash/shared").getDocument()
        XCTAssertEqual(shared.get("count") as? Int, 50)
        XCTAssertEqual(store.fileNames(in: "crash").filter { $0.hasPrefix(".") }, [], "no temporary file left")
    }

    func testSIGKILLDuringBatchCommitsNeverShowsAPartialBatch() async throws {
        let executable = try shelfBench()
        let size = 50
        let root = store.root.path
        let stop = store.scratch.appendingPathComponent("stop-reader")
        // A reader in another process: getDocuments() in a loop and a listener, each checked.
        let reader = try ShelfBench.Child(executable: executable, arguments: ["read-loop", root, "--batch", "\(size)", "--until", stop.path])
        // A listener here, each snapshot checked.
        let problems = Locked<[String]>([])
        let listened = Locked(0)
        track(db.collection("batches").addSnapshotListener { snapshot, error in
            guard let snapshot else { return problems.withLock { $0.append("listener error \(String(describing: error))") } }
            do {
                let batch = try ShelfBench.batchHeld(Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0.data()) }), size: size) ?? 0
                listened.withLock { last in
                    if batch < last { problems.withLock { $0.append("the listener went back from batch \(last) to \(batch)") } }
                    last = batch
                }
            } catch {
                problems.withLock { $0.append("a snapshot: \(error)") }
            }
        })

        var random = SystemRandomNumberGenerator()
        var last = 0
        var landedMidApply = 0
        var landedAfterCommitPoint = 0
        let kills = 100
        for round in 1...kills {
            var arguments = ["write-loop", root, "--batch", "\(size)"]
            let aimed = round % 3 != 0
            if aimed {
                // Stopped by its failpoint after applying 0...size documents of a committed batch,
                // so the kill lands inside the protocol's window however busy the machine is.
                arguments += ["--stop-in-apply", "\(Int.random(in: 0...size, using: &random))"]
            }
            let writer = try ShelfBench.Child(executable: executable, arguments: arguments)
            // Frozen first: a writer stopped inside a commit holds the write lock, so no reader or
            // listener (here or in the reader process) can roll its journal forward while the
            // files are looked at as the kill leaves them. An aimed writer stops itself.
            if !aimed {
                usleep(UInt32.random(in: 10_000...250_000, using: &random))
                kill(writer.process.processIdentifier, SIGSTOP)
            }
            let deadline = Date().addingTimeInterval(20)
            while !Self.isStopped(writer.process.processIdentifier) && writer.process.isRunning && Date() < deadline { usleep(200) }
            XCTAssertTrue(Self.isStopped(writer.process.processIdentifier), "round \(round): the writer never stopped: \(writer.failureOutput)")
            let journal = FileManager.default.fileExists(atPath: root + "/.shelf/journal")
            let raw = try ShelfBench.rawBatchDocuments(in: store.root.appendingPathComponent("batches"))
            kill(writer.process.processIdentifier, SIGKILL)
            writer.process.waitUntilExit()
            XCTAssertEqual(writer.process.terminationReason, .uncaughtSignal, "round \(round): \(writer.failureOutput)")
            if journal { landedAfterCommitPoint += 1 }
            if (try? ShelfBench.batchHeld(raw, size: size)) == nil && !raw.isEmpty {
                landedMidApply += 1
                XCTAssertTrue(journal, "round \(round): the files hold a partial batch and no committed journal completes it")
            }

            // Through the store: one whole batch, never older than before, the journal gone.
            let snapshot = try await db.collection("batches").getDocuments()
            do {
                let batch = try ShelfBench.batchHeld(Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0.data()) }), size: size) ?? 0
                XCTAssertGreaterThanOrEqual(batch, last, "round \(round)")
                last = batch
            } catch {
                XCTFail("round \(round): getDocuments() shows a partial batch: \(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/.shelf/journal"), "round \(round): the journal was rolled forward")
        }
        _ = FileManager.default.createFile(atPath: stop.path, contents: nil)
        let readerSaid = reader.finish()
        XCTAssertEqual(reader.process.terminationStatus, 0, "the reader process: \(reader.failureOutput)")
        XCTAssertTrue(readerSaid.hasPrefix("reads "), readerSaid)
        XCTAssertGreaterThan(last, 0, "no batch was ever committed")
        // The test is worth something only if kills landed inside the protocol's window.
        XCTAssertGreaterThan(landedMidApply, 0, "no kill landed while a batch was half applied")
        XCTAssertGreaterThan(landedAfterCommitPoint, 0, "no kill landed after a commit point")
        let final = last
        let deadline = Date().addingTimeInterval(10)
        while listened.withLock({ $0 }) != final && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(listened.withLock { $0 }, final, "the listener reaches the last batch")
        XCTAssertEqual(problems.withLock { $0 }, [])
        print("batch crash test: \(kills) kills, \(landedAfterCommitPoint) after a commit point, \(landedMidApply) with the batch half applied; reader: \(readerSaid)")
    }

    /// Whether the process is stopped (by SIGSTOP), from the state in `/proc/PID/stat`.
    private static func isStopped(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).first == "T"
    }
}

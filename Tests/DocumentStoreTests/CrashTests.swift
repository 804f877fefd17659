@testable import DocumentStore
import Foundation
import XCTest

/// Point 4 across processes: `shelf-bench write-loop` writes large documents in a loop; killed
/// with SIGKILL at random moments it leaves every document old or new, never partial, and no
/// file that is read as a document. Two processes writing one collection lose nothing.
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
}

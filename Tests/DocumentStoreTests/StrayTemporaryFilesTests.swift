@testable import DocumentStore
import Foundation
import XCTest

/// A single document's write is a temporary file renamed over the document; a writer killed
/// between the two leaves `.shelf-<random>.tmp` behind. The store removes those older than a
/// minute when it opens (in the background) and when asked (`shelf check`), at any depth, and
/// leaves young ones and everything else alone.
final class StrayTemporaryFilesTests: StoreTestCase {
    private func place(_ relative: String, age: TimeInterval) throws {
        try store.writeFile(relative, "{\"half\": ")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: store.path(relative))
    }

    private func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: store.path(relative)) }

    func testOldOnesAreRemovedAtAnyDepthYoungOnesAndOthersKept() throws {
        try db.document("books/dune").write(["title": "Dune"])
        try db.document("books/dune/reviews/r1").write(["stars": 5])
        try place("books/.shelf-old1.tmp", age: 120)
        try place("books/dune/reviews/.shelf-old2.tmp", age: 600)
        try place("books/.shelf-young.tmp", age: 5)
        try place("books/.other-hidden.tmp", age: 600)
        let other = try Firestore(directory: store.root)
        let removed = other.strayTemporaryFilesRemoved
        XCTAssertEqual(Set(removed), ["books/.shelf-old1.tmp", "books/dune/reviews/.shelf-old2.tmp"])
        XCTAssertFalse(exists("books/.shelf-old1.tmp"))
        XCTAssertFalse(exists("books/dune/reviews/.shelf-old2.tmp"))
        XCTAssertTrue(exists("books/.shelf-young.tmp"), "a writer may still be at it")
        XCTAssertTrue(exists("books/.other-hidden.tmp"), "not ours")
        XCTAssertTrue(exists("books/dune.json") && exists("books/dune/reviews/r1.json"))
        XCTAssertEqual(try Firestore(directory: store.root).strayTemporaryFilesRemoved, [], "gone: the next store finds none")
    }

    func testOpeningTheStoreSweepsAFolderShelfHasWrittenTo() throws {
        try place("books/.shelf-left.tmp", age: 3600)
        _ = try Firestore(directory: store.root)
        XCTAssertTrue(exists("books/.shelf-left.tmp"), "no write yet, no .shelf/: opening looks at nothing")
        try db.document("books/dune").write(["title": "Dune"])
        let other = try Firestore(directory: store.root)
        // Swept in the background a moment after the opening, or at once when asked (and
        // asking waits for the sweep).
        XCTAssertEqual(other.strayTemporaryFilesRemoved, ["books/.shelf-left.tmp"])
        XCTAssertFalse(exists("books/.shelf-left.tmp"), "removed by the opening's sweep")
    }

    func testTheOpeningsSweepWaitsAMomentForTheFirstReadsThenRunsUnasked() throws {
        try db.document("books/dune").write(["title": "Dune"])
        try place("books/.shelf-left.tmp", age: 3600)
        _ = try Firestore(directory: store.root)
        Thread.sleep(forTimeInterval: 0.2)  // an immediate sweep of a folder of two files would be over
        XCTAssertTrue(exists("books/.shelf-left.tmp"), "not swept while a listener's first files are read")
        let deadline = Date().addingTimeInterval(StrayFileSweep.delay + 10)
        while exists("books/.shelf-left.tmp") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(exists("books/.shelf-left.tmp"), "swept unasked after \(StrayFileSweep.delay) s, though the store is no longer referenced")
    }
}

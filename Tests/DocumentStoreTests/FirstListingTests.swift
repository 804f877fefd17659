@testable import DocumentStore
import XCTest

/// A large folder's first files are read before it is listed (`readHead`); its first listing
/// then reads only the others (`ListedFiles.leaveOut`): in the common case the head's files
/// lead the listing in the same order and no id is looked up; a file of the head that changed
/// since is read again; if the folder changed in between, each id is looked up.
final class FirstListingTests: XCTestCase {
    private typealias Head = CollectionFolderChanges.Head
    private typealias Listed = CollectionFolderChanges.ListedFiles

    private func ids(_ names: [String]) -> [ExactID] { names.map { ExactID($0) } }

    private func head(_ names: [String], unchanged: [String]) -> Head {
        var head = Head()
        head.ids = ids(names)
        for id in ids(unchanged) { head.reads[id] = (.fields([:]), nil, nil) }
        return head
    }

    func testTheHeadLeadingTheListingIsLeftOutButForAFileChangedSince() {
        var listed = Listed(ids: ids(["c", "a", "d", "b", "e"]))
        listed.leaveOut(head(["c", "a", "d"], unchanged: ["c", "d"]))
        XCTAssertEqual(listed.ids, ids(["a", "b", "e"]), "a changed after it was read: read again")
    }

    func testAListingInAnotherOrderIsMatchedIdByID() {
        var listed = Listed(ids: ids(["a", "x", "c", "b"]))
        listed.leaveOut(head(["c", "a", "b"], unchanged: ["a", "b", "c"]))
        XCTAssertEqual(listed.ids, ids(["x"]), "a file created in between moved the others")
    }

    func testWithoutAHeadEverythingIsRead() {
        var listed = Listed(ids: ids(["b", "a"]))
        listed.leaveOut(Head())
        XCTAssertEqual(listed.ids, ids(["b", "a"]))
    }
}

/// Slices of a first read grow with it: each is merged by a listener into all read before, so
/// a million files in slices of 8,192 would be 120 merges of up to a million rows.
final class ReadSliceTests: XCTestCase {
    func testSlicesAreASixteenthOfALargeReadAndNeverSmallerThanTheSmallest() {
        XCTAssertEqual(ParallelReading.sliceSize(reading: 3_000), ParallelReading.slice)
        XCTAssertEqual(ParallelReading.sliceSize(reading: 100_000), ParallelReading.slice)
        XCTAssertEqual(ParallelReading.sliceSize(reading: 1_000_000), 62_500)
    }
}

@testable import DocumentStore
import Foundation
@testable import ShelfModels
@testable import TerminalUI
import XCTest

/// One tab (`ListTab`) presents a collection held whole and a window of a query alike: what
/// one of the two tabs did before for itself is now the same in both.
@MainActor
final class ListTabTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-ListTabTests-\(UUID().uuidString)")
        try folder.writeDocument("notes/a", #"{"title": "A note"}"#)
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    private func bothTabs(on store: Firestore) -> [CollectionTab] {
        let collection = store.collection("notes")
        return [RawTab.make(store: store, collectionID: "notes"), ListTab(windowOf: collection, presentation: .raw(collection))]
    }

    /// A collection gone from a server has no folder to have been removed on disk: only a
    /// folder's tab says so (a tab held whole said it on a server too).
    func testAGoneCollectionSaysItsFolderWasRemovedOnlyWhereItHadOne() async throws {
        let (_, server) = try MemoryServer.open([:])
        for tab in bothTabs(on: server) {
            tab.isGone = true
            XCTAssertEqual(tab.statusMessage, "The 'notes' collection is gone")
        }
        for tab in bothTabs(on: try Firestore(directory: folder)) {
            tab.isGone = true
            XCTAssertEqual(tab.statusMessage, "The 'notes' folder is gone: it was removed on disk")
        }
    }

    /// A failed write reads the same in either tab, shows until one works or it is forgotten.
    func testAFailedWriteSaysTheSameInBothTabsUntilAWriteWorksOrItIsForgotten() async throws {
        let (_, store) = try MemoryServer.open([:])
        let failure = FirestoreErrorCode(.permissionDenied, "not yours")
        let tabs = bothTabs(on: store)
        let (held, window) = (tabs[0], tabs[1])
        XCTAssertEqual(held.noteWrite(failure), window.noteWrite(failure))
        XCTAssertEqual(held.statusMessage, window.statusMessage)
        XCTAssertTrue(held.statusMessage?.contains("not yours") == true, held.statusMessage ?? "no message")
        XCTAssertEqual(held.noteWrite(nil), "")
        XCTAssertFalse(held.statusMessage?.contains("not yours") ?? false, "a write that worked clears it")
        window.forgetWriteError()
        XCTAssertFalse(window.statusMessage?.contains("not yours") ?? false, "forgotten")
    }

    /// A row past the end is not read, in a list held whole as in a window: drawn as "…",
    /// never a trap.
    func testARowPastTheEndIsUnreadInAListHeldWhole() async throws {
        let tab = RawTab.make(store: try Firestore(directory: folder), collectionID: "notes")
        XCTAssertNil(tab.snapshot(at: 3))
        guard case .unread = tab.tableRow(at: 3, mode: .none) else { return XCTFail("a row past the end drawn") }
    }
}

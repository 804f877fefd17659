import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A collection folder made while Shelf runs appears as a tab, after the known tabs in byte
/// order of names; a removed one's tab says it is gone; an emptied one's tab is dropped, as
/// Firestore has no empty collections (but the guide's known tabs).
@MainActor
final class NewCollectionTabsTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try write("books/a", #"{"author": "X", "numberOfPages": 1, "title": "Alpha"}"#)
        try write("zines/z", #"{"name": "Zed"}"#)
    }

    private func write(_ path: String, _ json: String) throws { try folder.writeDocument(path, json) }

    /// Takes in what the store holds now (`AppModel.deliver`), then asserts `condition`.
    func testAFolderMadeWhileRunningBecomesATabInByteOrder() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("6")))  // zines
        XCTAssertEqual(app.tab.collectionID, "zines")
        XCTAssertFalse(app.refreshCollections(), "nothing new yet")
        try write("notes/x", #"{"title": "A note"}"#)
        try write("Zebra/q", #"{"name": "Capital"}"#)  // "Z" sorts before "n" and "z" by bytes
        XCTAssertTrue(app.refreshCollections())
        XCTAssertEqual(app.frame(size: Size(width: 90, height: 16)).canvas.lines[0],
                       " 1 Books   2 Colors   3 Languages   4 Offices   5 Articles   6 Zebra   7 notes   8 zines  ")
        XCTAssertEqual(app.tab.collectionID, "zines", "the shown tab stays shown")
        _ = app.apply(.key(.character("7")))
        try await deliver(app, { app.tab.isLoaded && app.tab.rowCount == 1 })
        XCTAssertTrue(app.frame(size: Size(width: 90, height: 16)).canvas.lines.joined().contains("A note"))
    }

    /// Each tick (the shell's once a second) looks at the collections as an effect, one look at
    /// a time: a tick while one is under way starts none, so a slow server is not asked again.
    func testATickLooksAtTheCollectionsAsAnEffectOneLookAtATime() async throws {
        let effects = ManualEffects()
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: effects)
        XCTAssertEqual(effects.pendingPaths, ["the store's collections"], "the start's look")
        XCTAssertEqual(app.apply(.tick), .unchanged)
        XCTAssertEqual(effects.pendingPaths, ["the store's collections"], "none while the start's is under way")
        effects.completeStartListing()
        try write("notes/x", #"{"title": "A note"}"#)
        XCTAssertFalse(app.state.tabSet.all.contains { $0.collectionID == "notes" })
        XCTAssertEqual(app.apply(.tick), .unchanged)
        XCTAssertEqual(effects.pendingPaths, ["the store's collections"])
        effects.complete()
        XCTAssertTrue(app.state.tabSet.all.contains { $0.collectionID == "notes" }, "the tick's look found it")
        _ = app.apply(.tick)
        XCTAssertEqual(effects.pendingPaths, ["the store's collections"], "the next tick looks again")
    }

    /// The start's listing and the once-a-second one run side by side: one that began before
    /// the last taken in is older news, however late it comes back.
    func testAListingThatBeganBeforeTheLastTakenInChangesNothing() async throws {
        let app = try await makeApp()
        let older = CollectionListing(of: app.store, selected: nil)
        try write("memos/m", #"{"name": "Memo"}"#)
        XCTAssertEqual(app.apply(.collectionsListed(CollectionListing(of: app.store, selected: nil))), .keepRunning)
        XCTAssertTrue(app.state.tabSet.all.contains { $0.collectionID == "memos" })
        XCTAssertEqual(app.apply(.collectionsListed(older)), .unchanged, "the older listing, without memos, comes back late")
        XCTAssertTrue(app.state.tabSet.all.contains { $0.collectionID == "memos" })
        XCTAssertFalse(app.state.tabSet.all.first { $0.collectionID == "memos" }?.isGone ?? true, "and is not taken for gone")
    }

    func testARemovedFolderLeavesATabThatSaysItIsGone() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("6")))
        try await deliver(app, { app.tab.rowCount == 1 })
        try FileManager.default.removeItem(at: folder.appendingPathComponent("zines"))
        XCTAssertTrue(app.refreshCollections())
        try await deliver(app, { app.tab.rowCount == 0 })
        let screen = app.frame(size: Size(width: 90, height: 16)).canvas.lines
        XCTAssertEqual(screen[14], " The 'zines' folder is gone: it was removed on disk                           0 documents ", screen.joined(separator: "\n"))
        XCTAssertTrue(screen[3].contains("The 'zines' folder is gone"), screen.joined(separator: "\n"))
        _ = app.apply(.key(.character("j")))
        _ = app.apply(.key(.character("e")))
        _ = app.frame(size: Size(width: 90, height: 16))

        try write("zines/y", #"{"name": "Back"}"#)
        XCTAssertTrue(app.refreshCollections(), "back again")
        try await deliver(app, { app.tab.rowCount == 1 })
        XCTAssertFalse(app.frame(size: Size(width: 90, height: 16)).canvas.lines.joined().contains("gone"))
    }

    /// The start lists the collections as an effect: the first frame is drawn while the listing
    /// is pending (on a server that does not answer, until its deadline), with the tabs known
    /// from the view models; the collections it finds join when it comes back.
    func testTheFirstFrameIsDrawnWhileTheCollectionsAreBeingListed() async throws {
        let runner = ManualEffects()
        let app = AppModel(store: try Firestore(directory: folder, settings: FirestoreSettings()), colorMode: .none, effects: runner)
        XCTAssertEqual(runner.pendingPaths, ["the store's collections"])
        try await app.deliver()
        let size = Size(width: 90, height: 16)
        XCTAssertEqual(app.frame(size: size).canvas.lines[0],
                       " 1 Books   2 Colors   3 Languages   4 Offices   5 Articles                                ")
        XCTAssertEqual(app.tabs.count, 5)
        runner.complete()
        XCTAssertTrue(runner.pending.isEmpty)
        XCTAssertEqual(app.frame(size: size).canvas.lines[0],
                       " 1 Books   2 Colors   3 Languages   4 Offices   5 Articles   6 zines                      ")
    }

    private var size: Size { Size(width: 90, height: 16) }

    private func removeDocument(_ path: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(path + ".json"))
    }

    func testAnEmptiedCollectionsTabIsDroppedUntilItHoldsADocumentAgain() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("6")))
        try await deliver(app, { app.tab.collectionID == "zines" && app.tab.rowCount == 1 })
        _ = app.frame(size: size)
        try removeDocument("zines/z")  // another program (or a client of shelf serve) deletes them all
        try await deliver(app, { app.tab.rowCount == 0 })
        _ = app.frame(size: size)
        XCTAssertTrue(app.refreshCollections())
        XCTAssertEqual(app.tabs.map(\.collectionID), ["books", "colors", "programming-languages", "locations", "articles"])
        XCTAssertEqual(app.tab.collectionID, "articles", "the tab before it is shown")
        let screen = app.frame(size: size).canvas.lines
        XCTAssertEqual(screen[0], " 1 Books   2 Colors   3 Languages   4 Offices   5 Articles                                ")
        XCTAssertTrue(screen[14].hasPrefix(" Closed the zines tab: no documents left (Firestore has no empty collections)"), screen[14])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("zines").path), "its folder stays")
        XCTAssertFalse(app.refreshCollections(), "the empty folder listed again makes no tab")
        XCTAssertEqual(app.tabs.count, 5)

        try write("zines/y", #"{"name": "Back"}"#)
        XCTAssertTrue(app.refreshCollections(), "a document again: a tab again")
        XCTAssertEqual(app.tabs.map(\.collectionID).last, "zines")
        _ = app.apply(.key(.character("6")))
        try await deliver(app, { app.tab.rowCount == 1 })
        XCTAssertTrue(app.frame(size: size).canvas.lines.joined().contains("Back"))
    }

    /// A folder made empty (`mkdir`) is a tab, to add to: only one emptied while shown goes.
    func testAnEmptyFolderThatNeverHeldADocumentKeepsItsTab() async throws {
        let app = try await makeApp()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
        XCTAssertTrue(app.refreshCollections())
        _ = app.apply(.key(.character("6")))
        try await deliver(app, { app.tab.collectionID == "notes" && app.tab.isLoaded })
        _ = app.frame(size: size)
        XCTAssertFalse(app.refreshCollections())
        XCTAssertEqual(app.tab.collectionID, "notes")
    }

    func testTheGuidesTabsStayWhenEmptied() async throws {
        try write("colors/red", ##"{"name": "Red", "color": "#ff0000"}"##)
        let app = try await makeApp()
        _ = app.apply(.key(.character("2")))
        try await deliver(app, { app.tab.collectionID == "colors" && app.tab.rowCount == 1 })
        _ = app.frame(size: size)
        try removeDocument("colors/red")
        try await deliver(app, { app.tab.rowCount == 0 })
        _ = app.frame(size: size)
        app.refreshCollections()
        XCTAssertEqual(app.tab.collectionID, "colors")
        XCTAssertTrue(app.frame(size: size).canvas.lines.joined().contains("No documents"))
    }

    func testAnEmptiedTabStaysWhileAFormIsOpenOnItAndGoesOnceItCloses() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("6")))
        try await deliver(app, { app.tab.collectionID == "zines" && app.tab.rowCount == 1 })
        _ = app.frame(size: size)
        _ = app.apply(.key(.character("a")))
        XCTAssertNotNil(app.form)
        try removeDocument("zines/z")
        try await deliver(app, { app.tab.rowCount == 0 })
        _ = app.frame(size: size)
        app.refreshCollections()
        XCTAssertEqual(app.tab.collectionID, "zines", "kept while the form is open")
        XCTAssertNotNil(app.form)
        _ = app.apply(.key(.escape))
        XCTAssertNil(app.form)
        XCTAssertTrue(app.refreshCollections())
        XCTAssertEqual(app.tab.collectionID, "articles", "dropped once it closed")
    }
}

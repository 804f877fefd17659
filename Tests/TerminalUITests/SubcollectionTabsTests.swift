import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A document's own collections (`books/dune/reviews/r1.json`): the detail names them, `c`
/// opens each as a tab beside the others, where they are browsed and edited as any folder.
@MainActor
final class SubcollectionTabsTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try write("books/dune", #"{"author": "Frank Herbert", "numberOfPages": 412, "title": "Dune"}"#)
        try write("books/emma", #"{"author": "Jane Austen", "numberOfPages": 474, "title": "Emma"}"#)
        try write("books/dune/reviews/r1", #"{"title": "Sand everywhere"}"#)
        try write("books/dune/reviews/r2", #"{"title": "Spice"}"#)
        try write("books/dune/notes/n1", #"{"name": "Arrakis"}"#)
    }

    private func write(_ path: String, _ json: String) throws { try folder.writeDocument(path, json) }

    /// Takes in what the store holds now (`AppModel.deliver`), then asserts `condition`.
    private func screen(_ app: AppModel) -> String {
        app.frame(size: Size(width: 100, height: 24)).canvas.lines.joined(separator: "\n")
    }

    func testTheDetailNamesTheSelectedDocumentsCollections() async throws {
        let app = try await makeApp()
        XCTAssertEqual(app.selectedDocument?.path, "books/dune")
        app.refreshCollections()  // the once-a-second look, which lists the selected document's too
        XCTAssertTrue(screen(app).contains("Collections  notes, reviews (c opens them)"), screen(app))
        _ = app.apply(.key(.character("j")))  // Emma has none
        app.refreshCollections()
        XCTAssertFalse(screen(app).contains("Collections"), screen(app))
    }

    func testCListsTheCollectionsWithoutHoldingTheKeys() async throws {
        let settings = FirestoreSettings()
        let runner = ManualEffects()
        let app = AppModel(store: try Firestore(directory: folder, settings: settings), colorMode: .none, effects: runner)
        runner.completeStartListing()
        try await deliver(app, { app.tab.isLoaded && app.tab.rowCount == 2 })
        _ = app.apply(.key(.character("c")))
        XCTAssertEqual(runner.pendingPaths, ["collections of books/dune"], "on a server, a call: an effect")
        _ = app.apply(.key(.character("j")))
        XCTAssertEqual(app.selectedDocument?.path, "books/emma", "a key is answered meanwhile")
        runner.complete()
        XCTAssertEqual(app.notice, "Opened the 2 collections of books/dune: notes, reviews", "the document c was pressed on")
        XCTAssertEqual(app.tab.collectionID, "books/dune/notes")
    }

    func testCOpensEachCollectionOfTheDocumentAsATabAndShowsTheFirst() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("c")))
        XCTAssertEqual(app.notice, "Opened the 2 collections of books/dune: notes, reviews")
        XCTAssertEqual(app.tab.collectionID, "books/dune/notes")
        try await deliver(app, { app.tab.isLoaded && app.tab.rowCount == 1 })
        XCTAssertTrue(screen(app).contains("Arrakis"), screen(app))
        XCTAssertEqual(app.tabs.map(\.collectionID).suffix(2), ["books/dune/notes", "books/dune/reviews"], "after the others")
        XCTAssertTrue(screen(app).contains("5 Articles   6 books/dune/notes"), screen(app))

        _ = app.apply(.key(.character("1")))
        _ = app.apply(.key(.character("c")))
        XCTAssertEqual(app.tabs.filter { $0.collectionID.hasPrefix("books/dune/") }.count, 2, "opened once")
        app.refreshCollections()
        XCTAssertFalse(app.tabs.contains { $0.isGone }, "a document's collection is not a top-level folder gone")
    }

    func testADocumentInACollectionOfADocumentIsEditedInItsOwnFile() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("c")))
        _ = app.apply(.key(.tab))  // books/dune/reviews
        XCTAssertEqual(app.tab.collectionID, "books/dune/reviews")
        try await deliver(app, { app.tab.isLoaded && app.tab.rowCount == 2 })
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        XCTAssertEqual(app.notice, "Deleted books/dune/reviews/r1 (u undoes)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/dune/reviews/r1.json").path))
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored books/dune/reviews/r1")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/dune/reviews/r1.json").path))
    }

    func testCOnADocumentWithoutCollectionsSaysSo() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("j")))
        _ = app.apply(.key(.character("c")))
        XCTAssertEqual(app.notice, "books/emma has no collections")
        XCTAssertEqual(app.tab.collectionID, "books")
    }

    /// A document's collection emptied while its tab is open goes too (Firestore has no
    /// empty collections); `c` brings its tab back for one that has documents again.
    func testAnEmptiedSubcollectionsTabIsDropped() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("c")))
        XCTAssertEqual(app.tab.collectionID, "books/dune/notes")
        try await deliver(app, { app.tab.rowCount == 1 })
        _ = app.frame(size: Size(width: 100, height: 24))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("books/dune/notes/n1.json"))
        try await deliver(app, { app.tab.rowCount == 0 })
        XCTAssertTrue(app.refreshCollections())
        XCTAssertEqual(app.tabs.map(\.collectionID).suffix(2), ["articles", "books/dune/reviews"])
        XCTAssertEqual(app.tab.collectionID, "articles")
    }
}

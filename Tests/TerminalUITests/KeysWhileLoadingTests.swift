import DocumentStore
import Foundation
@testable import TerminalUI
import XCTest

/// Keys typed before a collection has loaded are replayed as typed, whatever they are.
@MainActor
final class KeysWhileLoadingTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for index in 1...5 {
            try Data(#"{"author": "X", "numberOfPages": \#(index), "title": "River \#(index)"}"#.utf8)
                .write(to: books.appendingPathComponent("b\(index).json"))
        }
    }

    func testAFilterTypedWhileLoadingIsReplayedWhole() async throws {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        XCTAssertFalse(app.tab.isLoaded, "typed before the first snapshot")
        for c in "jj/river 7" { _ = app.apply(.key(.character(c))) }
        _ = app.apply(.key(.character("2")))
        try await app.deliver()
        app.apply(.replayWaitingKeys)
        guard case .filter = app.state.mode else { return XCTFail("the filter is open: \(app.state.mode)") }
        XCTAssertEqual(app.textField?.text, "river 72")
        XCTAssertEqual(app.tab.collectionID, "books", "2 was typed into the filter, not a tab switch")
        XCTAssertNil(app.notice)
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.state.lists.states["books"]?.filter, "river 72")
    }

    func testUnboundKeysWaitTooAndQuitDoesNot() async throws {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        _ = app.apply(.key(.character("/")))
        _ = app.apply(.key(.character("r")))
        XCTAssertNil(app.notice, "r waits with the filter it belongs to, instead of \"does nothing here\"")
        XCTAssertEqual(app.apply(.key(.ctrl("c"))), .quit, "Ctrl-C never waits")
    }
}

import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// While the screen says "Terminal too small", keys would act unseen: they are ignored, but
/// for Ctrl-C, which still quits.
@MainActor
final class TooSmallKeysTests: FolderAppTestCase {
    private let tiny = Size(width: 40, height: 10)
    private let normal = Size(width: 100, height: 24)

    override func setUp() async throws {
        try await super.setUp()
        for (id, title) in [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")] {
            try folder.writeDocument("books/\(id)", #"{"author": "X", "numberOfPages": 1, "title": "\#(title)"}"#)
        }
    }

    func testKeysTypedWhileTheTerminalIsTooSmallDoNothing() async throws {
        let app = try await makeApp()
        let before = app.frame(size: normal).canvas.lines
        XCTAssertTrue(app.frame(size: tiny).canvas.lines.joined().contains("Terminal too small"))
        for key: Key in [.character("j"), .character("a"), .character("x"), .character("/"), .character("B"), .enter, .character("2")] {
            XCTAssertEqual(app.apply(.key(key)), .unchanged, "\(key)")
        }
        XCTAssertEqual(app.apply(.key(.resize)), .keepRunning, "a resize is taken")
        XCTAssertEqual(app.frame(size: normal).canvas.lines, before, "nothing changed")
        guard case .browse = app.state.mode else { return XCTFail("no form or prompt opened: \(app.state.mode)") }
        XCTAssertEqual(app.tab.collectionID, "books")
    }

    func testCtrlCStillQuitsWhileTheTerminalIsTooSmall() async throws {
        let app = try await makeApp()
        _ = app.frame(size: tiny)
        XCTAssertEqual(app.apply(.key(.ctrl("c"))), .quit)
    }

    /// Keys that waited for a tab to load are not replayed into a screen too small to show
    /// them: they wait for it to be large enough.
    func testKeysWaitingForTheListWaitWhileTheTerminalIsTooSmall() async throws {
        let app = try await makeApp()
        _ = app.frame(size: normal)
        app.state.keysWaitingForLoad = [(.character("j"), 10)]
        _ = app.frame(size: tiny)
        _ = app.apply(.replayWaitingKeys)
        XCTAssertEqual(app.state.keysWaitingForLoad.count, 1, "still waiting")
        _ = app.frame(size: normal)
        _ = app.apply(.replayWaitingKeys)
        XCTAssertTrue(app.state.keysWaitingForLoad.isEmpty)
        XCTAssertEqual(app.state.lists.states["books"]?.selectedID, "b", "j moved down once the screen was back")
    }
}

import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// The whole app rendered to text at fixed sizes, with no terminal: what a person would see.
@MainActor
final class AppViewTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try write("books/hitchhiker", ##"{"author": "Douglas Adams", "field-doesnt-exist-in-struct": "hello", "numberOfPages": 816, "title": "The Ultimate Hitchhiker's Guide to the Galaxy"}"##)
        try write("books/invalid-data", ##"{"author": "Peter", "numberOfPages": "twohundredfifty", "title": "Using Combine in UI"}"##)
        try write("books/tagged", ##"{"author": "Douglas Adams", "numberOfPages": 816, "tags": [{"color": "#ec4be9", "title": "fun"}], "title": "Tagged 🚀 本"}"##)
        try write("colors/a", ##"{"color": "#ff8000", "name": "Orange"}"##)
        try write("colors/b", ##"{"color": "#123456", "name": "Navy-ish"}"##)
    }

    private func write(_ path: String, _ json: String) throws { try folder.writeDocument(path, json) }

    private func lines(_ app: AppModel, _ width: Int = 80, _ height: Int = 16) -> [String] {
        app.frame(size: Size(width: width, height: height)).canvas.lines
    }

    /// What a frame keeps in the state (the list's first row, the detail's scroll, an
    /// overlay's offset) is kept by the frame action; drawing, at any size, changes nothing.
    func testRenderingChangesNoState() async throws {
        let app = try await makeApp(colorMode: .palette256)
        _ = app.apply(.key(.character("G")))
        _ = app.apply(.key(.character("J")))
        _ = lines(app)
        let list = app.state.lists.states["books"]?.list
        let selected = app.state.lists.states["books"]?.selectedID
        let detail = app.state.detailScroll.map { "\($0.path) \($0.offset)" }
        for size in [Size(width: 40, height: 10), Size(width: 120, height: 40), Size(width: 20, height: 5)] {
            let screen = AppView.render(app, size: size)
            XCTAssertEqual(screen.canvas.lines, AppView.render(app, size: size).canvas.lines, "the same state draws the same screen")
        }
        XCTAssertEqual(app.state.lists.states["books"]?.list, list)
        XCTAssertEqual(app.state.lists.states["books"]?.selectedID, selected)
        XCTAssertEqual(app.state.detailScroll.map { "\($0.path) \($0.offset)" }, detail)

        _ = app.apply(.key(.character("?")))
        _ = app.apply(.key(.character("G")))
        _ = lines(app)
        guard case .help(let offset) = app.state.mode else { return XCTFail("the help is open: \(app.state.mode)") }
        _ = AppView.render(app, size: Size(width: 200, height: 60))
        guard case .help(offset) = app.state.mode else { return XCTFail("drawing taller left the help's offset: \(app.state.mode)") }
    }

    func testYCopiesTheSelectedDocumentsPath() async throws {
        let app = try await makeApp(colorMode: .palette256)
        let path = try XCTUnwrap(app.selectedDocument?.path)
        XCTAssertEqual(app.apply(.key(.character("y"))), .copyToClipboard(path))
        XCTAssertEqual(app.notice, "Copied \(path) to the clipboard")
    }

    func testCtrlZSuspendsFromTheListAndFromAFormKeepingWhatWasTyped() async throws {
        let app = try await makeApp(colorMode: .palette256)
        XCTAssertEqual(app.apply(.key(.ctrl("z"))), .suspend)
        _ = app.apply(.key(.character("e")))
        _ = app.apply(.key(.character("X")))
        XCTAssertEqual(app.apply(.key(.ctrl("z"))), .suspend)
        guard case .form = app.state.mode else { return XCTFail("the form is still open: \(app.state.mode)") }
        XCTAssertTrue(app.form?.isDirty == true, "what was typed stays")
    }

    func testBooksListAndDetail() async throws {
        let app = try await makeApp(colorMode: .palette256)
        XCTAssertEqual(lines(app), [
            " 1 Books   2 Colors   3 Languages   4 Offices   5 Articles                      ",
            "┌ Books ───────────────────────────────┐┌ books/tagged ────────────────────────┐",
            "│  Title ▲          Author        Pages││ Title   Tagged 🚀 本                 │",
            "│  Tagged 🚀 本     Douglas A…      816││ Author  Douglas Adams                │",
            "│  The Ultimate H…  Douglas A…      816││ Pages   816                          │",
            "│! Using Combine in UI  numberOfPages:…││ Tags     fun #ec4be9                 │",
            "│                                      ││                                      │",
            "│                                      ││                                      │",
            "│                                      ││                                      │",
            "│                                      ││                                      │",
            "│                                      ││                                      │",
            "│                                      ││                                      │",
            "│                                      ││                                      │",
            "└───────────────────────────────── 1/3 ┘└──────────────────────────────────────┘",
            "                                                   3 documents · 1 not decoding ",
            "Tab tabs  / filter  s sort  o open  a add  e edit  d delete  ? help  q quit     ",
        ])
        XCTAssertTrue(app.frame(size: Size(width: 80, height: 16)).canvas.style(at: Point(x: 3, y: 3)).reverse,
                      "the selected row is in reverse video")
    }

    func testBrokenDocumentShowsItsProblem() async throws {
        let app = try await makeApp(colorMode: .palette256)
        _ = app.apply(.key(.end))  // the broken document, last by its title
        let screen = lines(app, 160, 16)
        XCTAssertTrue(screen[2].hasSuffix("││ Problem  document books/invalid-data, field numberOfPages: expected Int,     │"), screen[2])
        XCTAssertTrue(screen[3].contains("││          found the string \"twohundredfifty\"   "), screen[3])
        XCTAssertEqual(screen[5].hasPrefix("│! Using Combine in UI  numberOfPages: expected Int"), true, screen[5])
        let text = screen.joined(separator: "\n")
        XCTAssertTrue(text.contains("Fields   author: Peter"), text)
        XCTAssertTrue(text.contains("numberOfPages: twohundredfifty"), text)
    }

    func testColorSwatchCellsUseThePaletteIndex() async throws {
        let app = try await makeApp(colorMode: .palette256)
        _ = app.apply(.key(.character("2")))
        try await deliver(app, { app.tab.isLoaded })
        _ = app.apply(.key(.down))  // by name, Navy-ish comes before Orange
        let screen = app.frame(size: Size(width: 80, height: 16))
        // Row 4 is the second colour, selected: a four-cell swatch after the border and the
        // marker column, drawn in reverse video so the row's selection leaves its colour alone.
        let swatch = screen.canvas.style(at: Point(x: 3, y: 4))
        XCTAssertEqual(swatch.foreground, TerminalColor(Color(red: 0xff, green: 0x80, blue: 0x00)))
        XCTAssertTrue(swatch.reverse)
        XCTAssertEqual(app.colorMode.paletteIndex(for: swatch.foreground), 208)
        let unselected = screen.canvas.style(at: Point(x: 3, y: 3))  // Navy-ish, under the header
        XCTAssertEqual(app.colorMode.paletteIndex(for: unselected.foreground), XtermPalette.index256(red: 0x12, green: 0x34, blue: 0x56))
        XCTAssertTrue(unselected.reverse)
        let text = screen.canvas.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains(" Orange  "), text)
        XCTAssertTrue(text.contains("  #ff8000"), text)
        XCTAssertTrue(text.contains("Palette  208 #ff8700"), text)
        XCTAssertTrue(text.contains("RGBA     255 128 0 255"), text)
    }

    func testNoColorKeepsSwatchesReadable() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("2")))
        try await deliver(app, { app.tab.isLoaded })
        let screen = app.frame(size: Size(width: 80, height: 16))
        for y in 0..<16 {
            for x in 0..<80 {
                let style = screen.canvas.style(at: Point(x: x, y: y))
                XCTAssertNil(app.colorMode.paletteIndex(for: style.foreground), "colour sent at \(x),\(y)")
                XCTAssertNil(app.colorMode.paletteIndex(for: style.background), "colour sent at \(x),\(y)")
            }
        }
        let text = screen.canvas.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("#ff8000"), text)
        XCTAssertTrue(text.contains("none (colour is off)"), text)
        XCTAssertTrue(screen.canvas.style(at: Point(x: 3, y: 4)).reverse, "the list swatch is drawn in reverse video")
    }

    func testHelpOverlayListsTheKeys() async throws {
        let app = try await makeApp(colorMode: .palette256)
        _ = app.apply(.key(.character("?")))
        // Tall enough for the whole help (ScrollingTests scroll it at 80×24).
        let text = lines(app, 100, 80).joined(separator: "\n")
        for expected in ["Move up", "Filter by every shown field", "Sort by the next column", "Reverse the sort direction", "Open a document by id", "Delete the selected document",
                         "Save (when every field is valid)", "Quit from anywhere", "Esc or ? to close"] {
            XCTAssertTrue(text.contains(expected), "help lacks \(expected):\n\(text)")
        }
        _ = app.apply(.key(.escape))
        XCTAssertFalse(lines(app, 100, 40).joined().contains("Quit from anywhere"))
    }

    func testTooSmallTerminal() async throws {
        let app = try await makeApp(colorMode: .palette256)
        XCTAssertEqual(lines(app, 40, 6), [
            "                                        ",
            "                                        ",
            "          Terminal too small:           ",
            "     need at least 60×16, have 40×6     ",
            "                                        ",
            "                                        ",
        ])
        XCTAssertTrue(lines(app, 60, 16)[0].contains("1 Books"), "recovers at the minimum size")
    }

    func testFormValidatesAsYouTypeAndKeepsUnknownFields() async throws {
        let app = try await makeApp(colorMode: .palette256)
        _ = app.apply(.key(.down))  // hitchhiker, after "Tagged" by title
        _ = app.apply(.key(.character("e")))
        _ = app.apply(.key(.down))
        _ = app.apply(.key(.down))
        for _ in 0..<3 { _ = app.apply(.key(.backspace)) }
        _ = app.apply(.key(.character("x")))
        let text = lines(app, 140, 20).joined(separator: "\n")
        XCTAssertTrue(text.contains("expected a whole number ≥ 0, found \"x\""), text)
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Not saved: fix the marked fields first")
        _ = app.apply(.key(.backspace))
        for character in "820" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved books/hitchhiker")
        let saved = try String(contentsOf: folder.appendingPathComponent("books/hitchhiker.json"), encoding: .utf8)
        XCTAssertTrue(saved.contains(#""numberOfPages": 820"#), saved)
        XCTAssertTrue(saved.contains(#""field-doesnt-exist-in-struct": "hello""#), saved)
    }

    func testDeleteAsksThenUndoRestoresTheDocument() async throws {
        let app = try await makeApp(colorMode: .palette256)
        let file = folder.appendingPathComponent("books/hitchhiker.json")
        func fields() throws -> NSDictionary { try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! NSDictionary }
        let before = try fields()
        _ = app.apply(.key(.down))  // hitchhiker, after "Tagged" by title
        _ = app.apply(.key(.character("d")))
        let question = lines(app, 100, 20).joined(separator: "\n")
        XCTAssertTrue(question.contains("Delete “The Ultimate Hitchhiker's Guide to the …” (books/hitchhiker)?"), question)
        _ = app.apply(.key(.character("n")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "n keeps the document")
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "y deletes it")
        XCTAssertEqual(app.notice, "Deleted books/hitchhiker (u undoes)")
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored books/hitchhiker")
        XCTAssertEqual(try fields(), before, "the same fields come back, the unknown one included")
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Nothing to undo")
    }
}

/// Ctrl-C in a changed form asks; a kept draft is offered at the start.
@MainActor
final class FormDraftTests: FolderAppTestCase {
    private var state: URL!

    override func setUp() async throws {
        try await super.setUp()
        state = folder.appendingPathComponent("state")
        let books = folder.appendingPathComponent("data/books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try Data(#"{"author": "Douglas Adams", "numberOfPages": 816, "title": "Hitchhiker"}"#.utf8).write(to: books.appendingPathComponent("h.json"))
    }

    /// The app on the folder's `data`, its drafts under `state`, its waiting keys replayed.
    private func draftingApp() async throws -> AppModel {
        let data = folder.appendingPathComponent("data")
        let app = try await makeApp(store: Firestore(directory: data), draftFile: DraftFile(place: data.path, environment: ["XDG_STATE_HOME": state.path]))
        app.apply(.replayWaitingKeys)
        return app
    }

    func testCtrlCAsksOnlyWhenTheFormChanged() async throws {
        let app = try await draftingApp()
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.apply(.key(.character("!"))), .keepRunning)
        XCTAssertEqual(app.apply(.key(.ctrl("c"))), .keepRunning, "a changed form asks first")
        XCTAssertTrue(app.frame(size: Size(width: 100, height: 24)).canvas.lines.joined().contains("Quit and lose what you typed"))
        _ = app.apply(.key(.character("n")))
        guard case .form = app.state.mode else { return XCTFail("n goes back to the form") }
        XCTAssertEqual(app.form?.widget.values.first, "Hitchhiker!")
        XCTAssertEqual(app.apply(.key(.ctrl("c"))), .keepRunning)
        XCTAssertEqual(app.apply(.key(.character("y"))), .quit)
        _ = app.apply(.key(.escape))
    }

    func testADraftOfAnEditReopensAndAsksBeforeOverwritingAChangedDocument() async throws {
        let first = try await draftingApp()
        _ = first.apply(.key(.character("e")))
        _ = first.apply(.key(.character("!")))
        let draft = try XCTUnwrap(first.formDraft)
        try XCTUnwrap(first.draftFile).save(draft)
        // Someone else changes the document before the next start.
        try Data(#"{"author": "D. Adams", "numberOfPages": 816, "title": "Hitchhiker"}"#.utf8)
            .write(to: folder.appendingPathComponent("data/books/h.json"))

        let second = try await draftingApp()
        guard case .confirm(.reopenDraft) = second.state.mode else { return XCTFail("the start offers the draft: \(second.state.mode)") }
        _ = second.apply(.key(.character("y")))
        second.apply(.replayWaitingKeys)
        XCTAssertEqual(second.form?.widget.values.first, "Hitchhiker!")
        XCTAssertNil(second.draftFile?.load(), "the form holds the text now")
        _ = second.apply(.key(.enter))
        guard case .confirm(.conflict(_, deleted: false)) = second.state.mode else { return XCTFail("saving over the changed document asks: \(second.state.mode)") }
    }
}

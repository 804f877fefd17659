import Foundation
import TerminalKit
import XCTest

/// Drives the real `shelf` binary in tmux (100×30, xterm-256color, UTF-8) on a temporary copy of
/// the demo data, by keys, the way a person would, and checks the screen and the files on disk.
final class TerminalSessionTests: TmuxTestCase {
    // MARK: Browsing

    func testBooksListShowsTitlesBrokenMarkerAndDetailShowsExtraField() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        let screen = tmux.screen()
        XCTAssertTrue(Self.listShows(screen, "A Game of Thrones", "George R. R.", "694"),
                      "The books list should show titles, authors and pages by title:\n\(TmuxSession.framed(screen))")
        XCTAssertTrue(screen.contains("1 not decoding"), "The status line should count the broken document:\n\(TmuxSession.framed(screen))")

        // The document that does not decode is listed by its title among the others, marked "!".
        tmux.send(keys: "G")
        tmux.waitFor(text: " 47/47 ┘")
        let last = tmux.screen()
        let broken = Self.listPane(last).first { $0.contains("SwiftUI and Combine") }
        XCTAssertNotNil(broken, "The books list should list invalid-data by its title:\n\(TmuxSession.framed(last))")
        if let broken {
            let beforeTitle = broken[..<(broken.range(of: "SwiftUI and Combine")?.lowerBound ?? broken.endIndex)]
            XCTAssertTrue(beforeTitle.contains("!"), "invalid-data's row should carry a \"!\" marker: \(broken)")
        }
        tmux.send(keys: "g")
        tmux.waitFor(text: " 1/47 ┘")

        // invalid-data's detail gives the reason it does not decode.
        try moveDown(tmux, untilDetailTitle: "books/invalid-data")
        let brokenDetail = Self.detailText(tmux.screen())
        XCTAssertTrue(brokenDetail.contains("numberOfPages"), "invalid-data's detail should name the field: \(brokenDetail)")
        XCTAssertTrue(brokenDetail.contains("twohundredfifty"), "invalid-data's detail should show what was found: \(brokenDetail)")

        // Move down with j until hitchhiker is selected.
        try moveDown(tmux, untilDetailTitle: "books/hitchhiker")
        let detailScreen = tmux.screen()
        let detail = Self.detailText(detailScreen)
        XCTAssertTrue(
            detail.contains("The Ultimate Hitchhiker's Guide to the Galaxy"),
            "The detail should show hitchhiker's full title:\n\(TmuxSession.framed(detailScreen))")
        XCTAssertTrue(detail.contains("Douglas Adams"), "The detail should show the author:\n\(TmuxSession.framed(detailScreen))")
        XCTAssertTrue(detail.contains("816"), "The detail should show the pages:\n\(TmuxSession.framed(detailScreen))")
        XCTAssertTrue(detail.contains("hello"), "The detail should show the extra field's value:\n\(TmuxSession.framed(detailScreen))")
        XCTAssertTrue(
            detail.contains("field-doesnt-exist-in-struct"),
            "The detail should show the extra field's whole name `field-doesnt-exist-in-struct`:\n\(TmuxSession.framed(detailScreen))")
    }

    func testDigitsAndTabSwitchTabs() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "┌ Books ")

        tmux.send(keys: "2")
        tmux.waitFor(text: "┌ Colors ")
        tmux.waitFor(text: "61 documents")
        let colors = tmux.screen()
        XCTAssertTrue(Self.listShows(colors, "Alice Blue", "#f0f8ff"), "The colors list should show name and hex:\n\(TmuxSession.framed(colors))")
        // Each row's swatch shows its colour's palette index, the selected row's too (its detail
        // names the index; the first by name, Alice Blue); Dark Cyan, #008b8b, is xterm's 30.
        let attributed = tmux.screenWithAttributes().components(separatedBy: "\n")
        if let index = Self.firstMatch(of: #"Palette\s+(\d+)"#, in: Self.detailText(colors)) {
            let row = attributed.first { $0.contains("Alice Blue") } ?? ""
            let shown = Self.shownBackgrounds(before: "Alice Blue", in: row)
            XCTAssertTrue(
                shown.contains("5;\(index)"),
                "The selected row's swatch should show palette \(index); its cells show \(shown.sorted()): \(String(reflecting: row))")
        } else {
            XCTFail("The colour detail should name its palette index:\n\(TmuxSession.framed(colors))")
        }
        let darkCyan = attributed.first { $0.contains("Dark Cyan") } ?? ""
        XCTAssertTrue(
            Self.shownBackgrounds(before: "Dark Cyan", in: darkCyan).contains("5;30"),
            "Dark Cyan's swatch should show palette 30: \(String(reflecting: darkCyan))")

        tmux.send(keys: "Tab")
        tmux.waitFor(text: "┌ Languages ")
        tmux.waitFor(text: "Ada")
        tmux.send(keys: "Tab")
        tmux.waitFor(text: "┌ Offices ")
        tmux.send(keys: "BTab")
        tmux.waitFor(text: "┌ Languages ")
        tmux.send(keys: "5")
        tmux.waitFor(text: "┌ Articles ")
        tmux.send(keys: "1")
        tmux.waitFor(text: "┌ Books ")
        tmux.waitFor(text: "47 documents")
    }

    func testKeysTypedRightAfterSwitchingTabsAreKept() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        // As a script types: the tab's key and two moves at once (BASIC, C, Go by name; Ada,
        // which does not decode, is last).
        tmux.send(keys: "3", "j", "j")
        tmux.waitFor(text: "┌ Languages ")
        tmux.waitFor(text: "┌ programming-languages/go ")
    }

    func testFilterNarrowsKeepsAndClears() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")

        tmux.send(keys: "/")
        tmux.type("earthsea")
        tmux.waitFor(text: "1 of 47 documents")
        var list = Self.listPane(tmux.screen())
        XCTAssertTrue(list.contains { $0.contains("A Wizard of Earthsea") }, "The filtered list should show the match: \(list)")
        XCTAssertFalse(list.contains { $0.contains("A Game of Thrones") }, "The filtered list should hide the rest: \(list)")

        // Enter keeps the filter and returns to the list with the first match selected.
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "q quit")
        tmux.waitFor(text: "books/a-wizard-of-earthsea")
        XCTAssertTrue(tmux.screen().contains("1 of 47 documents"), "Enter should keep the filter:\n\(TmuxSession.framed(tmux.screen()))")

        // Esc clears it.
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "47 documents")
        tmux.waitForAbsence(of: "1 of 47")
        list = Self.listPane(tmux.screen())
        XCTAssertTrue(list.contains { $0.contains("A Game of Thrones") }, "Esc should show every book again: \(list)")
    }

    // MARK: Editing

    func testAddingAColourWritesItsFile() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        let before = try colourFiles()

        tmux.send(keys: "a")
        tmux.waitFor(text: "New colour")
        tmux.type("E2E Orange")
        tmux.send(keys: "Tab")
        // The new colour's hex field starts filled (the sample's ColorEntry.empty is red): clear it.
        tmux.send(keys: Array(repeating: "BSpace", count: 12))
        tmux.type("#ff8000")
        tmux.waitFor(text: "#ff8000")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "62 documents")

        var added: [URL] = []
        tmux.waitUntil("a new file appears in colors/") {
            added = ((try? self.colourFiles()) ?? []).filter { !before.contains($0) }
            return !added.isEmpty
        }
        XCTAssertEqual(added.count, 1, "Adding one colour should write one file: \(added.map(\.lastPathComponent))")
        guard let file = added.first else { return }
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(##""color": "#ff8000""##), "The new file should hold the hex:\n\(text)")
        XCTAssertTrue(text.contains(#""name": "E2E Orange""#), "The new file should hold the name:\n\(text)")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual(object?["color"] as? String, "#ff8000")
        XCTAssertEqual(object?["name"] as? String, "E2E Orange")

        // The list shows it.
        tmux.send(keys: "/")
        tmux.type("E2E Orange")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "1 of 62 documents")
        waitForRow(tmux, "E2E Orange", "#ff8000")
    }

    func testEditingABookKeepsTheFieldTheFormDoesNotShow() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        let file = try dataCopy().appendingPathComponent("books/hitchhiker.json")

        tmux.send(keys: "o")
        tmux.waitFor(text: "Open books/")
        tmux.type("hitchhiker")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Opened as Book")
        tmux.send(keys: "e")
        tmux.waitFor(text: "Edit books/hitchhiker")
        // Title, Author, Pages.
        tmux.send(keys: "Tab", "Tab")
        tmux.send(keys: Array(repeating: "BSpace", count: 8))
        tmux.type("900")
        tmux.waitForScreen("the Pages field reads 900") { screen in
            Self.detailPaneLines(screen).contains { $0.contains("Pages") && $0.contains("900") }
        }
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Saved books/hitchhiker")

        tmux.waitUntil("books/hitchhiker.json has 900 pages") {
            let object = (try? Self.jsonObject(at: file)) ?? [:]
            return object["numberOfPages"] as? Int == 900
        }
        let object = try Self.jsonObject(at: file)
        XCTAssertEqual(object["field-doesnt-exist-in-struct"] as? String, "hello", "The extra field should survive the edit: \(object)")
        XCTAssertEqual(object["title"] as? String, "The Ultimate Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(object["author"] as? String, "Douglas Adams")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(#""field-doesnt-exist-in-struct": "hello""#), "The file should stay pretty-printed:\n\(text)")

        // Back in the list, the detail shows the new page count.
        tmux.send(keys: "Escape")
        tmux.waitForScreen("the list's detail shows books/hitchhiker with 900 pages") { screen in
            screen.contains("┌ books/hitchhiker ") && Self.detailText(screen).contains("Pages 900")
        }
    }

    func testBadHexShowsAValidationMessageAndSavesNothing() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "┌ Colors ")
        tmux.waitFor(text: "61 documents")
        guard let id = Self.firstMatch(of: #"┌ colors/([A-Za-z0-9_-]+) "#, in: tmux.screen()) else {
            return XCTFail("The colors detail should name the selected document:\n\(TmuxSession.framed(tmux.screen()))")
        }
        let file = try dataCopy().appendingPathComponent("colors/\(id).json")
        let original = try Data(contentsOf: file)

        tmux.send(keys: "e")
        tmux.waitFor(text: "Edit colors/\(id)")
        tmux.send(keys: "Tab")
        tmux.send(keys: Array(repeating: "BSpace", count: 12))
        tmux.type("#12345g")
        tmux.waitFor(text: "#12345g")
        tmux.waitForScreen("a validation message marked \"!\" under the colour field") { screen in
            Self.detailText(screen).contains(##"! "#12345g" has "g", which is not a hex digit"##)
        }
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Not saved")
        XCTAssertEqual(try Data(contentsOf: file), original, "An invalid form must not be saved")

        // A valid hex clears the message, and its swatch previews live beside the field.
        tmux.send(keys: Array(repeating: "BSpace", count: 12))
        tmux.type("#ff8000")
        tmux.waitForScreen("the validation message goes away") { screen in
            !Self.detailPaneLines(screen).contains { $0.hasPrefix("!") }
        }
        let row = tmux.screenWithAttributes().components(separatedBy: "\n").first { $0.contains("#ff8000") } ?? ""
        XCTAssertTrue(
            Set(Self.cells(of: row).map(\.shownBackground)).contains("5;208"),
            "The colour field's row should preview #ff8000 as a swatch (palette 208): \(String(reflecting: row))")

        // Esc asks first, since something was typed; y discards.
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "Discard what you typed?")
        tmux.send(keys: "y")
        tmux.waitFor(text: "q quit")
        XCTAssertEqual(try Data(contentsOf: file), original, "A cancelled form must not be saved")
    }

    func testDeleteAsksAndOnlyYesRemovesTheFile() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        let file = try dataCopy().appendingPathComponent("books/dune.json")

        tmux.send(keys: "/")
        tmux.type("dune")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "┌ books/dune ")
        tmux.waitFor(text: "q quit")

        tmux.send(keys: "d")
        tmux.waitFor(text: "Delete “Dune” (books/dune)?")
        tmux.send(keys: "n")
        tmux.waitForAbsence(of: "Delete “Dune” (books/dune)?")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "n should keep books/dune.json")
        XCTAssertTrue(Self.listShows(tmux.screen(), "Dune", "Frank Herbert"), "n should keep the row:\n\(TmuxSession.framed(tmux.screen()))")

        tmux.send(keys: "d")
        tmux.waitFor(text: "Delete “Dune” (books/dune)?")
        tmux.send(keys: "y")
        tmux.waitUntil("books/dune.json is removed") { !FileManager.default.fileExists(atPath: file.path) }
        tmux.waitForScreen("Dune's row goes") { !Self.listShows($0, "Dune", "Frank Herbert") }
        tmux.waitFor(text: "46 documents")
    }

    // MARK: Live updates

    func testExternalChangesAppearLive() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        guard let selected = Self.firstMatch(of: #"┌ (colors/[A-Za-z0-9_-]+) "#, in: tmux.screen()) else {
            return XCTFail("The colors detail should name the selected document:\n\(TmuxSession.framed(tmux.screen()))")
        }
        // A name that sorts first, so the row is on screen.
        let file = try dataCopy().appendingPathComponent("colors/0000-e2e-live.json")

        try Self.write(##"{"color": "#123456", "name": "Aaa Live From Outside"}"##, to: file)
        waitForRow(tmux, "Aaa Live From Outside", "#123456")
        tmux.waitFor(text: "62 documents")
        XCTAssertTrue(
            tmux.screen().contains("┌ \(selected) "),
            "The selection should stay on \(selected) when a document is added:\n\(TmuxSession.framed(tmux.screen()))")

        try Self.write(##"{"color": "#654321", "name": "Aaa Live Rewritten"}"##, to: file)
        waitForRow(tmux, "Aaa Live Rewritten", "#654321")
        tmux.waitForAbsence(of: "Live From Outside")

        try FileManager.default.removeItem(at: file)
        tmux.waitForAbsence(of: "Live Rewritten")
        tmux.waitFor(text: "61 documents")
    }

    func testCorruptFileShowsABrokenRowUntilFixed() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        guard let id = Self.firstMatch(of: #"┌ colors/([A-Za-z0-9_-]+) "#, in: tmux.screen()) else {
            return XCTFail("The colors detail should name the selected document:\n\(TmuxSession.framed(tmux.screen()))")
        }
        let file = try dataCopy().appendingPathComponent("colors/\(id).json")
        let original = try Data(contentsOf: file)
        let object = try Self.jsonObject(at: file)
        let name = try XCTUnwrap(object["name"] as? String)
        let hex = try XCTUnwrap(object["color"] as? String)
        waitForRow(tmux, name, hex)

        try Self.write(#"{"name": "#, to: file)
        tmux.waitForScreen("\(id)'s row is marked \"!\"") { screen in
            Self.listPane(screen).contains { $0.hasPrefix("!") && $0.contains(id) }
        }
        tmux.waitFor(text: "1 not decoding")
        let broken = tmux.screen()
        XCTAssertTrue(broken.contains("┌ colors/\(id) "), "The broken document should stay selected:\n\(TmuxSession.framed(broken))")
        XCTAssertTrue(
            Self.detailText(broken).contains("not valid JSON"),
            "The detail should give the reason:\n\(TmuxSession.framed(broken))")

        try original.write(to: file, options: .atomic)
        waitForRow(tmux, name, hex)
        tmux.waitForAbsence(of: "not decoding")
        let fixed = tmux.screen()
        XCTAssertFalse(Self.listPane(fixed).contains { $0.hasPrefix("!") }, "No row should be marked once fixed:\n\(TmuxSession.framed(fixed))")
        XCTAssertTrue(Self.detailText(fixed).contains("Name \(name)"), "The detail should show the colour again:\n\(TmuxSession.framed(fixed))")
    }

    // MARK: Terminal

    func testResizeRedrawsAndTooSmallRecovers() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")

        try tmux.resize(width: 120, height: 40)
        tmux.waitForScreen("the layout fills 120×40") { screen in Self.layoutFills(screen, width: 120, height: 40) }

        try tmux.resize(width: 40, height: 10)
        tmux.waitFor(text: "Terminal too small")
        XCTAssertFalse(tmux.screen().contains("┌ Books"), "A too-small terminal should show only the message:\n\(TmuxSession.framed(tmux.screen()))")

        try tmux.resize(width: 100, height: 30)
        tmux.waitForAbsence(of: "Terminal too small")
        tmux.waitForScreen("the layout fills 100×30 again") { screen in Self.layoutFills(screen, width: 100, height: 30) }
        tmux.waitFor(text: "47 documents")
    }

    func testQuitRestoresTheTerminal() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        XCTAssertEqual(tmux.paneFormat("#{alternate_on}"), "1", "shelf should draw on the alternate screen")

        tmux.send(keys: "q")
        assertExitedAndRestored(tmux, statuses: [0])
    }

    func testCtrlCQuitsFromAForm() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "┌ Colors ")
        tmux.send(keys: "a")
        tmux.waitFor(text: "New colour")
        tmux.type("half typed")
        tmux.waitFor(text: "half typed")

        // Ctrl-C asks as Esc does: n goes back to the form with the text.
        tmux.send(keys: "C-c")
        tmux.waitFor(text: "Quit and lose what you typed")
        tmux.send(keys: "n")
        tmux.waitForAbsence(of: "Quit and lose what you typed")
        tmux.type(" more")
        tmux.waitFor(text: "half typed more")

        tmux.send(keys: "C-c")
        tmux.waitFor(text: "Quit and lose what you typed")
        tmux.send(keys: "y")
        assertExitedAndRestored(tmux, statuses: [0, 130])
        XCTAssertEqual(try colourFiles().count, 61, "Ctrl-C should not save the form")
    }

    /// The pane's shell here has no job control, so a stop would never be undone: Ctrl-Z says
    /// so and Shelf goes on, the form and its text as they were. (From a shell with job
    /// control it stops, and `fg` brings back the same screen: tried by hand.)
    func testCtrlZWithoutAShellsJobControlSaysSoAndGoesOn() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "e")
        tmux.waitFor(text: "Edit books/")
        tmux.type("XYZ")
        tmux.send(keys: "C-z")
        tmux.waitFor(text: "Ctrl-Z does nothing here")
        tmux.waitFor(text: "ThronesXYZ")
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "Discard what you typed?")
        tmux.send(keys: "y")
        tmux.waitForAbsence(of: "Discard what you typed?")
        tmux.send(keys: "q")
        assertExitedAndRestored(tmux, statuses: [0])
    }

    func testCtrlCQuitsAtOnceWithNothingTyped() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "a")
        tmux.waitFor(text: "New book")
        tmux.send(keys: "C-c")
        assertExitedAndRestored(tmux, statuses: [0, 130])
    }

    func testSIGTERMExitsAndRestoresTheTerminal() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        let pid = try XCTUnwrap(tmux.shelfPID(), "shelf's process should be found by its data folder")

        sendSignal(SIGTERM, to: pid)
        assertExitedAndRestored(tmux, statuses: [0, 128 + SIGTERM])
        tmux.waitUntil("shelf's process is gone") { !processExists(pid) }
    }

    func testQuestionMarkTogglesTheHelpOverlay() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")

        tmux.send(keys: "?")
        tmux.waitFor(text: "Esc or ? to close")
        // The help is several screens long: read it a page at a time (PgDn) to its end.
        var help = tmux.screen()
        for _ in 0..<10 where !tmux.screen().contains("Esc or ? to close · ↑ more") {
            let before = tmux.screen()
            tmux.send(keys: "PgDn")
            tmux.waitUntil("the help scrolls") { tmux.screen() != before }
            help += tmux.screen()
        }
        XCTAssertTrue(tmux.screen().contains("Esc or ? to close · ↑ more"), "the help's end is reached:\n\(TmuxSession.framed(tmux.screen()))")
        for key in [
            "↑/k", "↓/j", "PgUp", "PgDn", "Home/g", "End/G", "Tab", "Shift-Tab", "1/2/3", "/", "Esc", "o", "a",
            "e/Enter", "E", "J", "K", "v", "Y", "s", "S", "d", "u", "Ctrl-R", "c", "m", "?", "q", "Ctrl-C",
        ] {
            XCTAssertTrue(
                help.components(separatedBy: "\n").contains { $0.contains("│   \(key) ") || $0.contains("│   \(key)/") },
                "The help should list the key \(key):\n\(TmuxSession.framed(help))")
        }
        for words in ["Filter", "Open a document by id", "Add", "Edit", "Delete", "Quit"] {
            XCTAssertTrue(help.contains(words), "The help should say \(words):\n\(TmuxSession.framed(help))")
        }

        tmux.send(keys: "?")
        tmux.waitForAbsence(of: "Esc or ? to close")
        tmux.waitFor(text: "q quit")
    }

    func testNoColorSendsNoColourAndKeepsHexCodes() throws {
        let tmux = try startShelf(environment: ["NO_COLOR": "1"])
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        waitForRow(tmux, "Alice Blue", "#f0f8ff")
        let list = Self.listPane(tmux.screen())
        let withHex = list.filter { Self.firstMatch(of: #"(#[0-9a-f]{6,8})"#, in: $0) != nil }
        XCTAssertGreaterThanOrEqual(withHex.count, 20, "Every colour row should show its hex: \(list)")
        XCTAssertTrue(Self.detailText(tmux.screen()).contains("#f0f8ff"), "The detail should show the hex")

        let attributed = tmux.screenWithAttributes()
        let colours = Self.foregroundColours(in: attributed) + Self.backgroundColours(in: attributed)
        XCTAssertEqual(colours, [], "With NO_COLOR no colour should be sent; the screen has: \(Set(colours).sorted())")
    }

    // MARK: Helpers

    private func startShelf(width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws -> TmuxSession {
        let binary = try shelfBinary()
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: binary, dataFolder: data, width: width, height: height, environment: environment)
        session = tmux
        return tmux
    }

    /// Waits for a list row that shows each of `parts` in order (the columns pad between them).
    private func waitForRow(_ tmux: TmuxSession, _ parts: String..., file: StaticString = #filePath, line: UInt = #line) {
        tmux.waitForScreen("a list row shows \(parts)", file: file, line: line) { Self.listShows($0, parts) }
    }

    private func dataCopy() throws -> URL {
        try XCTUnwrap(dataFolder, "start shelf first")
    }

    private func colourFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: dataCopy().appendingPathComponent("colors"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "json" }
    }

    /// Presses j until the detail pane's title is `title` (the list's order is the app's).
    private func moveDown(_ tmux: TmuxSession, untilDetailTitle title: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for _ in 0..<60 {
            let screen = tmux.screen()
            if screen.contains("┌ \(title) ") { return }
            if tmux.shelfHasExited {
                XCTFail("shelf exited while moving to \(title):\n\(TmuxSession.framed(tmux.history()))", file: file, line: line)
                throw EndToEndFailure("shelf exited")
            }
            let current = Self.firstMatch(of: #"┐┌ ([^ ]+) "#, in: screen) ?? ""
            tmux.send(keys: "j")
            tmux.waitForScreen("the selection moves past \(current)", file: file, line: line) {
                !$0.contains("┐┌ \(current) ")
            }
        }
        XCTFail("Pressing j never selected \(title):\n\(TmuxSession.framed(tmux.screen()))", file: file, line: line)
        throw EndToEndFailure("\(title) was not found in the list")
    }

    // MARK: Reading the screen

    /// The list pane's rows: what lies between the left border and `││`.
    static func listPane(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").compactMap { line in
            guard line.hasPrefix("│"), let middle = line.range(of: "││") else { return nil }
            return String(line[line.index(after: line.startIndex)..<middle.lowerBound])
        }
    }

    /// Whether a row of the list pane shows each of `parts`, in this order.
    static func listShows(_ screen: String, _ parts: String...) -> Bool { listShows(screen, parts) }

    static func listShows(_ screen: String, _ parts: [String]) -> Bool {
        listPane(screen).contains { row in
            var rest = row[...]
            for part in parts {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
    }

    /// The detail pane's rows, trimmed: what lies between `││` and the right border.
    static func detailPaneLines(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").compactMap { line in
            guard let middle = line.range(of: "││") else { return nil }
            var right = line[middle.upperBound...]
            if right.hasSuffix("│") { right = right.dropLast() }
            return right.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The detail pane as one line of words (wrapped values joined, runs of spaces made one).
    static func detailText(_ screen: String) -> String {
        detailPaneLines(screen).joined(separator: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Whether the panes' frames span the whole width and the screen has every row.
    static func layoutFills(_ screen: String, width: Int, height: Int) -> Bool {
        var lines = screen.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard lines.count == height else { return false }
        let bottom = lines.last { $0.hasPrefix("└") && $0.hasSuffix("┘") }
        return bottom?.count == width && lines.contains { $0.hasPrefix("┌") && $0.hasSuffix("┐") && $0.count == width }
    }

    static func firstMatch(of pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    static func jsonObject(at file: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        return try XCTUnwrap(object as? [String: Any], "\(file.lastPathComponent) should hold a JSON object")
    }

    /// Writes a file the way another program might: all at once, replacing what was there.
    static func write(_ text: String, to file: URL) throws {
        try Data(text.utf8).write(to: file, options: .atomic)
    }

    // MARK: Reading SGR sequences

    /// Every foreground colour set by the SGR sequences in `text`, such as `5;208`, `2;255;128;0`
    /// or `31`; the default (39) is not a colour.
    static func foregroundColours(in text: String) -> [String] {
        sgrColours(in: text).filter { $0.foreground }.map(\.code)
    }

    /// Every background colour set by the SGR sequences in `text`; the default (49) is not one.
    static func backgroundColours(in text: String) -> [String] {
        sgrColours(in: text).filter { !$0.foreground }.map(\.code)
    }

    /// One cell of an attributed line, with the colours set for it (`5;208`, `31`, nil: default).
    struct Cell {
        var character: Character
        var foreground: String?
        var background: String?
        var reverse: Bool

        /// The background a terminal shows: reverse video shows the foreground there.
        var shownBackground: String { (reverse ? foreground : background) ?? "default" }
    }

    /// The cells of one line of `capture-pane -e` output (one cell per character).
    static func cells(of line: String) -> [Cell] {
        var cells: [Cell] = []
        var foreground: String?
        var background: String?
        var reverse = false
        var rest = Substring(line)
        while let first = rest.first {
            if first == "\u{1B}", rest.dropFirst().first == "[", let end = rest.firstIndex(where: { $0.isLetter }) {
                let body = rest[rest.index(rest.startIndex, offsetBy: 2)..<end]
                if rest[end] == "m" {
                    let parameters = body.isEmpty ? [0] : body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    var index = 0
                    while index < parameters.count {
                        switch parameters[index] {
                        case 0: foreground = nil; background = nil; reverse = false
                        case 7: reverse = true
                        case 27: reverse = false
                        case 39: foreground = nil
                        case 49: background = nil
                        case 30...37, 90...97: foreground = "\(parameters[index])"
                        case 40...47, 100...107: background = "\(parameters[index])"
                        case 38, 48:
                            if index + 2 < parameters.count, parameters[index + 1] == 5 {
                                let code = "5;\(parameters[index + 2])"
                                if parameters[index] == 38 { foreground = code } else { background = code }
                                index += 2
                            }
                        default: break
                        }
                        index += 1
                    }
                }
                rest = rest[rest.index(after: end)...]
                continue
            }
            cells.append(Cell(character: first, foreground: foreground, background: background, reverse: reverse))
            rest = rest.dropFirst()
        }
        return cells
    }

    /// The backgrounds shown by the cells of `line` between its first cell and where `text` starts.
    static func shownBackgrounds(before text: String, in line: String) -> Set<String> {
        let cells = cells(of: line)
        let characters = cells.map(\.character)
        let target = Array(text)
        guard let start = characters.indices.first(where: { characters[$0...].starts(with: target) }), start > 1 else { return [] }
        return Set(cells[1..<start].map(\.shownBackground))
    }

    private static func sgrColours(in text: String) -> [(foreground: Bool, code: String)] {
        guard let expression = try? NSRegularExpression(pattern: "\u{1B}\\[([0-9;:]*)m") else { return [] }
        var colours: [(Bool, String)] = []
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range(at: 1), in: text) else { continue }
            let parameters = text[range].split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
            var index = 0
            while index < parameters.count {
                let parameter = parameters[index]
                switch parameter {
                case 38, 48:
                    let foreground = parameter == 38
                    if index + 2 < parameters.count, parameters[index + 1] == 5 {
                        colours.append((foreground, "5;\(parameters[index + 2])"))
                        index += 3
                    } else if index + 4 < parameters.count, parameters[index + 1] == 2 {
                        colours.append((foreground, "2;" + parameters[(index + 2)...(index + 4)].map(String.init).joined(separator: ";")))
                        index += 5
                    } else {
                        index += 1
                    }
                case 30...37, 90...97:
                    colours.append((true, "\(parameter)"))
                    index += 1
                case 40...47, 100...107:
                    colours.append((false, "\(parameter)"))
                    index += 1
                default:
                    index += 1
                }
            }
        }
        return colours
    }
}

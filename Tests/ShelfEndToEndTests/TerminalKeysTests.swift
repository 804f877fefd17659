import Foundation
import XCTest

/// Every key the README lists, as tmux, screen, xterm and the Linux console send it, with the
/// app really running under that TERM. tmux sends Home as `ESC [1~` and End as `ESC [4~`
/// whatever the pane's TERM says, which xterm's terminfo does not know; the raw sequences
/// below are what the other terminals send.
final class TerminalKeysTests: TmuxTestCase {
    func testKeysUnderXterm256color() throws { try checkKeys(term: "xterm-256color") }
    func testKeysUnderScreen() throws { try checkKeys(term: "screen") }
    func testKeysUnderTheLinuxConsole() throws { try checkKeys(term: "linux") }
    func testKeysUnderTmux256color() throws { try checkKeys(term: "tmux-256color") }

    /// Home and End as each terminal family sends them (hex bytes).
    private static let homeSequences = ["1b 5b 31 7e", "1b 5b 37 7e", "1b 5b 48", "1b 4f 48"]
    private static let endSequences = ["1b 5b 34 7e", "1b 5b 38 7e", "1b 5b 46", "1b 4f 46"]

    private func checkKeys(term: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data, term: term)
        session = tmux
        tmux.waitFor(text: "47 documents", file: file, line: line)
        let first = detailTitle(tmux)

        // tmux's own End and Home.
        tmux.send(keys: "End")
        tmux.waitForScreen("End selects the last book", file: file, line: line) { self.title(in: $0) != first }
        let last = detailTitle(tmux)
        assertStillBrowsingBooks(tmux, after: "End", probe: ("k", "j"), file: file, line: line)
        tmux.send(keys: "Home")
        tmux.waitForScreen("Home selects the first book", file: file, line: line) { self.title(in: $0) == first }
        assertStillBrowsingBooks(tmux, after: "Home", probe: ("j", "k"), file: file, line: line)

        // Every other family's Home and End.
        for (home, end) in zip(Self.homeSequences, Self.endSequences) {
            tmux.send(hex: end)
            tmux.waitForScreen("End (\(end)) selects the last book", file: file, line: line) { self.title(in: $0) == last }
            assertStillBrowsingBooks(tmux, after: end, probe: ("k", "j"), file: file, line: line)
            tmux.send(hex: home)
            tmux.waitForScreen("Home (\(home)) selects the first book", file: file, line: line) { self.title(in: $0) == first }
            assertStillBrowsingBooks(tmux, after: home, probe: ("j", "k"), file: file, line: line)
        }

        // Moves: arrows in both cursor-key modes, PgDn/PgUp.
        for (down, up) in [("Down", "Up"), ("PgDn", "PgUp")] {
            tmux.send(keys: down)
            tmux.waitForScreen("\(down) moves down", file: file, line: line) { self.title(in: $0) != first }
            tmux.send(keys: up)
            tmux.waitForScreen("\(up) moves back up", file: file, line: line) { self.title(in: $0) == first }
        }
        for (down, up) in [("1b 5b 42", "1b 5b 41"), ("1b 4f 42", "1b 4f 41"), ("1b 5b 36 7e", "1b 5b 35 7e")] {
            tmux.send(hex: down)
            tmux.waitForScreen("\(down) moves down", file: file, line: line) { self.title(in: $0) != first }
            tmux.send(hex: up)
            tmux.waitForScreen("\(up) moves back up", file: file, line: line) { self.title(in: $0) == first }
        }

        // Tabs: Tab, Shift-Tab (tmux's, and the Linux console's ESC Tab), digits.
        tmux.send(keys: "Tab")
        tmux.waitFor(text: "┌ Colors ", file: file, line: line)
        tmux.send(keys: "BTab")
        tmux.waitFor(text: "┌ Books ", file: file, line: line)
        if term == "linux" {
            tmux.send(keys: "Tab")
            tmux.waitFor(text: "┌ Colors ", file: file, line: line)
            tmux.send(hex: "1b 09")  // the console's Shift-Tab
            tmux.waitFor(text: "┌ Books ", file: file, line: line)
        }
        tmux.send(keys: "2")
        tmux.waitFor(text: "┌ Colors ", file: file, line: line)
        tmux.send(keys: "1")
        tmux.waitFor(text: "┌ Books ", file: file, line: line)

        // A form: ←/→, Home/End (tmux's and xterm's), Backspace, Delete.
        tmux.send(keys: "a")
        tmux.waitFor(text: "New book", file: file, line: line)
        tmux.type("bc")
        tmux.send(keys: "Home")
        tmux.type("a")
        tmux.send(keys: "End")
        tmux.type("d")
        tmux.send(hex: "1b 4f 48")  // xterm's Home
        tmux.send(keys: "Right")
        tmux.send(keys: "DC")  // Delete: "abcd" -> "acd"
        tmux.send(hex: "1b 4f 46")  // xterm's End
        tmux.send(keys: "BSpace")  // -> "ac"
        tmux.send(keys: "Left")
        tmux.type("X")  // -> "aXc"
        tmux.waitFor(text: "aXc", file: file, line: line)
        let form = tmux.screen()
        XCTAssertTrue(form.contains("New book"), "The keys must leave the form open under \(term):\n\(TmuxSession.framed(form))", file: file, line: line)
        XCTAssertFalse(form.contains("Delete"), "No key may run as a command under \(term):\n\(TmuxSession.framed(form))", file: file, line: line)

        // Esc asks, y discards; q quits.
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "Discard what you typed?", file: file, line: line)
        tmux.send(keys: "y")
        tmux.waitFor(text: "Changes discarded", file: file, line: line)
        tmux.send(keys: "q")
        tmux.waitForScreen("shelf quits on q", afterExit: true, file: file, line: line) { $0.contains("\(TmuxSession.exitedMarker) 0") }
    }

    /// The original bug: under tmux with TERM=xterm-256color, End (`ESC [4~`) in a form with
    /// nothing typed closed the form and switched to the Offices tab. Home and End must move the
    /// cursor within the field, the form staying open on the same tab, and a letter typed next
    /// goes into the field.
    func testHomeAndEndInAnUnchangedFormUnderXterm256colorInTmux() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data, term: "xterm-256color")
        session = tmux
        tmux.waitFor(text: "47 documents")
        #if os(Linux)
        let pid = try XCTUnwrap(tmux.shelfPID())
        let environment = try String(decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")), as: UTF8.self)
        XCTAssertTrue(environment.split(separator: "\0").contains("TERM=xterm-256color"), "shelf runs with the TERM meant")
        #endif
        let file = data.appendingPathComponent("books/a-game-of-thrones.json")
        let original = try Data(contentsOf: file)
        let title = "A Game of Thrones"

        // Home in the unchanged form: the cursor goes to the field's start.
        let start = try openTitleField(tmux)
        tmux.send(keys: "Home")
        tmux.waitUntil("the cursor is at the field's start") { self.cursorX(tmux) == start }
        assertFormStaysOpenOnBooks(tmux, after: "Home")
        tmux.type("Y")
        tmux.waitFor(text: "› Title        Y\(title) ")
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "Discard what you typed?")
        tmux.send(keys: "y")
        tmux.waitFor(text: "Changes discarded")

        // End in the unchanged form, after ← moved the cursor back: the cursor goes to its end.
        _ = try openTitleField(tmux)
        let end = start + title.count
        tmux.waitUntil("the form opens with the cursor after the text") { self.cursorX(tmux) == end }
        tmux.send(keys: "Left", "Left", "Left")
        tmux.waitUntil("← moves the cursor back three") { self.cursorX(tmux) == end - 3 }
        tmux.send(keys: "End")
        tmux.waitUntil("End moves the cursor to the field's end") { self.cursorX(tmux) == end }
        assertFormStaysOpenOnBooks(tmux, after: "End")
        tmux.type("Z")
        tmux.waitFor(text: "› Title        \(title)Z ")
        assertFormStaysOpenOnBooks(tmux, after: "End and Z")
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "Discard what you typed?")
        tmux.send(keys: "y")
        tmux.waitFor(text: "Changes discarded")
        XCTAssertEqual(try Data(contentsOf: file), original)
    }

    /// Opens the selected book's form; returns the column where its Title field's text starts.
    private func openTitleField(_ tmux: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        tmux.waitFor(text: "┌ books/a-game-of-thrones ", file: file, line: line)
        tmux.send(keys: "e")
        tmux.waitFor(text: "› Title        A Game of Thrones ", file: file, line: line)
        let row = try XCTUnwrap(tmux.lines().first { $0.contains("› Title ") }, file: file, line: line)
        let text = try XCTUnwrap(row.range(of: "A Game of Thrones"), file: file, line: line)
        return row.distance(from: row.startIndex, to: text.lowerBound)
    }

    private func cursorX(_ tmux: TmuxSession) -> Int? { Int(tmux.paneFormat("#{cursor_x}")) }

    /// The form is open on the Books tab; nothing ran as a command.
    private func assertFormStaysOpenOnBooks(_ tmux: TmuxSession, after key: String, file: StaticString = #filePath, line: UInt = #line) {
        let screen = tmux.screen()
        XCTAssertTrue(screen.contains("┌ Edit books/a-game-of-thrones "), "\(key) must leave the form open:\n\(TmuxSession.framed(screen))", file: file, line: line)
        XCTAssertTrue(screen.contains("┌ Books "), "\(key) must not switch tabs:\n\(TmuxSession.framed(screen))", file: file, line: line)
        XCTAssertFalse(screen.contains("┌ Offices "), "\(key) must not switch tabs:\n\(TmuxSession.framed(screen))", file: file, line: line)
    }

    /// `probe`: a move away from the selected row and one back. Keys are read in order, so
    /// once the list has moved back, stray pieces of a split sequence have acted, if any.
    private func assertStillBrowsingBooks(_ tmux: TmuxSession, after key: String, probe: (away: String, back: String),
                                          file: StaticString, line: UInt) {
        let selected = detailTitle(tmux)
        tmux.send(keys: probe.away)
        tmux.waitForScreen("the probe \(probe.away) after \(key) moves", file: file, line: line) { self.title(in: $0) != selected }
        tmux.send(keys: probe.back)
        tmux.waitForScreen("the probe \(probe.back) after \(key) moves back", file: file, line: line) { self.title(in: $0) == selected }
        let screen = tmux.screen()
        XCTAssertTrue(screen.contains("┌ Books "), "\(key) must not switch tabs:\n\(TmuxSession.framed(screen))", file: file, line: line)
        XCTAssertFalse(screen.contains("does nothing here"), "\(key) must not arrive as characters:\n\(TmuxSession.framed(screen))", file: file, line: line)
        XCTAssertFalse(screen.contains("Delete books/"), "\(key) must not open a dialog:\n\(TmuxSession.framed(screen))", file: file, line: line)
    }

    /// The detail pane's title: the selected document's path.
    private func title(in screen: String) -> String? {
        guard let range = screen.range(of: #"┐┌ (books/[^ ]+) "#, options: .regularExpression) else { return nil }
        return String(screen[range].dropFirst(3).dropLast())
    }

    private func detailTitle(_ tmux: TmuxSession) -> String? { title(in: tmux.screen()) }
}

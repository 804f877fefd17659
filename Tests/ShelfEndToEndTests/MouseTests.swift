import Foundation
import XCTest

/// The mouse in the real binary under tmux: a click selects a row or a tab, the wheel scrolls
/// the list or, over it, the detail; `--no-mouse` leaves the mouse to the terminal. Mouse
/// events are sent as the bytes xterm sends (SGR: `ESC [ < button ; column ; row M`).
final class MouseTests: TmuxTestCase {
    private func start(arguments: [String] = [], term: String = "xterm-256color") throws -> TmuxSession {
        let data = try temporaryDataCopy()
        dataFolder = data
        // A book with many fields that sorts first, so its detail can scroll.
        var fields: [String: Any] = ["author": "A", "numberOfPages": 1, "title": "A Book of Many Fields"]
        for index in 1...40 { fields[String(format: "extra%02d", index)] = "value \(index)" }
        try JSONSerialization.data(withJSONObject: fields).write(to: data.appendingPathComponent("books/many.json"))
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data, term: term, arguments: arguments)
        session = tmux
        tmux.waitFor(text: "48 documents")
        return tmux
    }

    /// The bytes of a mouse event at a 0-based cell: button 0 is the left button (pressed, then
    /// released), 64 and 65 the wheel up and down.
    private func mouse(_ tmux: TmuxSession, button: Int, x: Int, y: Int) {
        let press = "\u{1B}[<\(button);\(x + 1);\(y + 1)M"
        let bytes = button < 64 ? press + "\u{1B}[<\(button);\(x + 1);\(y + 1)m" : press
        tmux.send(hex: bytes.utf8.map { String(format: "%02x", $0) }.joined(separator: " "))
    }

    private func line(containing text: String, in tmux: TmuxSession) throws -> (x: Int, y: Int) {
        let lines = tmux.lines()
        let y = try XCTUnwrap(lines.firstIndex { $0.contains(text) }, "\(text) is on screen:\n\(TmuxSession.framed(tmux.screen()))")
        let range = try XCTUnwrap(lines[y].range(of: text))
        return (lines[y].distance(from: lines[y].startIndex, to: range.lowerBound), y)
    }

    func testAClickSelectsARowOrATab() throws {
        let tmux = try start()
        XCTAssertEqual(tmux.paneFormat("#{mouse_standard_flag}#{mouse_sgr_flag}"), "11", "Shelf asks for mouse reports")
        let dune = try line(containing: "Dune ", in: tmux)
        mouse(tmux, button: 0, x: dune.x + 1, y: dune.y)
        tmux.waitFor(text: "┌ books/dune ")
        tmux.waitFor(text: " 8/48 ┘")

        let colors = try line(containing: "2 Colors", in: tmux)
        mouse(tmux, button: 0, x: colors.x + 2, y: colors.y)
        tmux.waitFor(text: "┌ Colors ")
        tmux.waitFor(text: "61 documents")
        // Keys still work after clicks.
        tmux.send(keys: "1")
        tmux.waitFor(text: "┌ books/dune ")

        // A click on a column's title sorts by it, a second one turns it around.
        let author = try line(containing: "Author", in: tmux)
        mouse(tmux, button: 0, x: author.x + 1, y: author.y)
        tmux.waitFor(text: "Author ▲")
        mouse(tmux, button: 0, x: author.x + 1, y: author.y)
        tmux.waitFor(text: "Author ▼")
        XCTAssertTrue(tmux.screen().contains("┌ books/dune "), "the selection stays:\n\(TmuxSession.framed(tmux.screen()))")
    }

    func testTheWheelScrollsTheListAndOverTheDetailTheDetail() throws {
        let tmux = try start()
        tmux.waitFor(text: "┌ books/many ")
        XCTAssertFalse(tmux.screen().contains("K ↑"), TmuxSession.framed(tmux.screen()))
        // Over the detail pane: the detail scrolls, the selection stays.
        mouse(tmux, button: 65, x: 70, y: 10)
        tmux.waitFor(text: "K ↑ J ↓ more")
        XCTAssertTrue(tmux.screen().contains("┌ books/many "), TmuxSession.framed(tmux.screen()))
        mouse(tmux, button: 64, x: 70, y: 10)
        tmux.waitForAbsence(of: "K ↑")

        // Over the list: the selection moves three rows a turn.
        mouse(tmux, button: 65, x: 10, y: 10)
        tmux.waitFor(text: " 4/48 ┘")
        mouse(tmux, button: 65, x: 10, y: 10)
        tmux.waitFor(text: " 7/48 ┘")
        mouse(tmux, button: 64, x: 10, y: 10)
        tmux.waitFor(text: " 4/48 ┘")
    }

    /// ncurses decodes only the encoding TERM's terminfo names: under tmux-256color it expects
    /// X10 reports, under xterm-256color SGR ones. A report in the other encoding is still a
    /// click, never keys (it would switch tabs and say "M" does nothing).
    func testAMouseReportInTheEncodingTerminfoDoesNotNameIsStillAClick() throws {
        for (term, encoding) in [("tmux-256color", "SGR"), ("xterm-256color", "X10")] {
            let tmux = try start(term: term)
            let dune = try line(containing: "Dune ", in: tmux)
            let (x, y) = (dune.x + 2, dune.y + 1)
            let bytes = encoding == "SGR"
                ? "\u{1B}[<0;\(x);\(y)M\u{1B}[<0;\(x);\(y)m"
                : "\u{1B}[M" + String(UnicodeScalar(UInt8(32))) + String(UnicodeScalar(UInt8(32 + x))) + String(UnicodeScalar(UInt8(32 + y)))
                  + "\u{1B}[M#" + String(UnicodeScalar(UInt8(32 + x))) + String(UnicodeScalar(UInt8(32 + y)))
            tmux.send(hex: bytes.utf8.map { String(format: "%02x", $0) }.joined(separator: " "))
            tmux.waitFor(text: "┌ books/dune ")
            let screen = tmux.screen()
            XCTAssertTrue(screen.contains("┌ Books "), "\(term), \(encoding): still on the books tab:\n\(TmuxSession.framed(screen))")
            XCTAssertFalse(screen.contains("does nothing"), "\(term), \(encoding):\n\(TmuxSession.framed(screen))")
            tmux.kill()
        }
    }

    func testNoMouseLeavesTheMouseToTheTerminal() throws {
        let tmux = try start(arguments: ["--no-mouse"])
        XCTAssertEqual(tmux.paneFormat("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_all_flag}"), "0000",
                       "with --no-mouse Shelf does not ask for mouse reports")
        let dune = try line(containing: "Dune ", in: tmux)
        mouse(tmux, button: 0, x: dune.x + 1, y: dune.y)
        mouse(tmux, button: 65, x: 10, y: 10)
        // A key after the events shows they have been read, and did nothing.
        tmux.send(keys: "j")
        tmux.waitFor(text: " 2/48 ┘")
        XCTAssertFalse(tmux.screen().contains("books/dune"), TmuxSession.framed(tmux.screen()))
    }
}

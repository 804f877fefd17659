import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// `v` shows the selected document's file as stored, scrolling and following the file;
/// `Y` hands the same text to the terminal's clipboard (OSC 52) and says so.
@MainActor
final class RawViewAndCopyTests: FolderAppTestCase {
    private var file: URL { folder.appendingPathComponent("books/long.json") }
    /// 40 fields, pretty-printed as the store writes them: more lines than 80×24 shows.
    private let stored: String = {
        let fields = (1...40).map { String(format: "  \"extra%02d\": \"value %d\",", $0, $0) }.joined(separator: "\n")
        return "{\n  \"author\": \"A\",\n\(fields)\n  \"numberOfPages\": 1,\n  \"title\": \"A long one\"\n}\n"
    }()

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("books"), withIntermediateDirectories: true)
        try Data(stored.utf8).write(to: file)
    }

    private func screen(_ app: AppModel) -> String {
        app.frame(size: Size(width: 80, height: 24)).canvas.lines.joined(separator: "\n")
    }

    func testVShowsTheStoredTextScrollsAndEscCloses() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("v")))
        var text = screen(app)
        XCTAssertTrue(text.contains("┌ books/long.json "), text)
        XCTAssertTrue(text.contains("│  {"), "the file's first line:\n\(text)")
        XCTAssertTrue(text.contains("    \"author\": \"A\","), "as stored, indentation kept:\n\(text)")
        XCTAssertTrue(text.contains("v or Esc closes · ↓ more"), text)
        XCTAssertFalse(text.contains("\"title\""), "the end does not fit yet:\n\(text)")
        XCTAssertTrue(text.contains("↓ scroll  Y copy  Esc close"), "the hint line gives the view's keys:\n\(text)")

        _ = app.apply(.key(.character("G")))
        text = screen(app)
        XCTAssertTrue(text.contains("\"title\": \"A long one\""), "G shows the end:\n\(text)")
        XCTAssertTrue(text.contains("v or Esc closes · ↑ more"), text)
        XCTAssertFalse(text.contains("extra24"), text)
        _ = app.apply(.key(.character("k")))
        XCTAssertTrue(screen(app).contains("\"extra24\""), "k scrolls back at once:\n\(screen(app))")
        _ = app.apply(.key(.character("g")))
        XCTAssertTrue(screen(app).contains("\"author\": \"A\","))

        _ = app.apply(.key(.escape))
        text = screen(app)
        XCTAssertTrue(text.contains("┌ books/long "), "Esc is back to the detail:\n\(text)")
        XCTAssertFalse(text.contains("books/long.json"), text)
        _ = app.apply(.key(.character("v")))
        _ = app.apply(.key(.character("v")))
        XCTAssertFalse(screen(app).contains("books/long.json"), "v closes it too")
    }

    func testTheViewFollowsAChangeOnDisk() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("v")))
        XCTAssertTrue(screen(app).contains("\"title\"") == false)
        try Data("{\"author\": \"B\", \"numberOfPages\": 2, \"title\": \"Rewritten\"}\n".utf8).write(to: file, options: .atomic)
        try await app.deliver()
        XCTAssertTrue(screen(app).contains("{\"author\": \"B\", \"numberOfPages\": 2,"), "the new text, wrapped:\n\(screen(app))")
        XCTAssertFalse(screen(app).contains("extra01"), screen(app))
    }

    func testCapitalYCopiesTheStoredTextAndSaysSo() async throws {
        let app = try await makeApp()
        XCTAssertEqual(app.apply(.key(.character("Y"))), .copyToClipboard(stored))
        XCTAssertTrue(screen(app).contains("Copied books/long to the clipboard as JSON"), screen(app))
        // In the JSON view too.
        _ = app.apply(.key(.character("v")))
        XCTAssertEqual(app.apply(.key(.character("Y"))), .copyToClipboard(stored))
    }

    /// A document past what terminals take by OSC 52 is not sent; the notice says so, with
    /// its size and the limit, and where to get it instead.
    func testADocumentTooLargeForTheTerminalsClipboardIsNotSentAndTheNoticeSaysSo() async throws {
        let big = "{\n  \"author\": \"A\",\n  \"numberOfPages\": 1,\n  \"title\": \"\(String(repeating: "x", count: 5_242_880))\"\n}\n"
        try Data(big.utf8).write(to: file)
        let app = try await makeApp()
        XCTAssertEqual(app.apply(.key(.character("Y"))), .keepRunning)
        let notice = try XCTUnwrap(app.notice)
        XCTAssertEqual(notice, "Not copied: \(big.utf8.count.formatted()) bytes, over the 786,426 a terminal's clipboard "
                       + "takes; E opens books/long, or copy the file \(file.path)")
    }

    /// The limit is tmux's: the sequence's string (`52;c;` and the base64) fits its 1 MiB buffer.
    func testTheLargestTextSentFitsTmuxsBufferAndOneByteMoreWouldNot() async throws {
        let tmuxLimit = 1_048_576
        let largest = String(repeating: "x", count: Clipboard.maxBytes)
        XCTAssertLessThanOrEqual(Clipboard.osc52(copying: largest).utf8.count - 3, tmuxLimit)  // less ESC ] and BEL
        XCTAssertGreaterThan(Clipboard.osc52(copying: largest + "x").utf8.count - 3, tmuxLimit)

        let fitting = "{\"title\": \"\(String(repeating: "x", count: Clipboard.maxBytes - 14))\"}\n"
        XCTAssertEqual(fitting.utf8.count, Clipboard.maxBytes)
        try Data(fitting.utf8).write(to: file)
        let app = try await makeApp()
        XCTAssertEqual(app.apply(.key(.character("Y"))), .copyToClipboard(fitting))
    }

    func testTheSequenceIsOSC52WithTheTextInBase64() {
        XCTAssertEqual(Clipboard.osc52(copying: "hi"), "\u{1B}]52;c;aGk=\u{07}")
        XCTAssertEqual(Clipboard.osc52(copying: "ë"), "\u{1B}]52;c;w6s=\u{07}")
    }

    func testTheHelpListsVAndY() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("?")))
        var help = ""
        for _ in 0..<12 {
            help += screen(app)
            _ = app.apply(.key(.pageDown))
        }
        XCTAssertTrue(help.contains("Show its stored JSON"), help)
        XCTAssertTrue(help.contains("Copy its JSON to the clipboard (OSC 52)"), help)
        XCTAssertTrue(help.contains("In the JSON view (v)"), help)
    }
}

import Foundation
import XCTest

/// A control character in a document's id reaches the terminal escaped (`\x1b`), as
/// `shelf list` prints it, and the columns after it stay where the other rows have them.
final class ControlCharactersEndToEndTests: TmuxTestCase {
    func testAnIDWithAnEscapeIsShownEscapedAndKeepsTheNextColumnInPlace() throws {
        dataFolder = try temporaryDataCopy()
        let notes = dataFolder!.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data(#"{"title": "Next column"}"#.utf8).write(to: notes.appendingPathComponent("evil\u{1B}[2Jname.json"))
        try Data(#"{"title": "Plain"}"#.utf8).write(to: notes.appendingPathComponent("plain.json"))
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!)
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "6")
        tmux.waitFor(text: "Plain")
        let lines = tmux.lines()
        let evil = try XCTUnwrap(lines.first { $0.hasPrefix(#"│  evil\x1b[2Jname "#) }, TmuxSession.framed(tmux.screen()))
        let plain = try XCTUnwrap(lines.first { $0.hasPrefix("│  plain ") }, TmuxSession.framed(tmux.screen()))
        XCTAssertEqual(evil.range(of: "Next column").map { evil.distance(from: evil.startIndex, to: $0.lowerBound) },
                       plain.range(of: "Plain").map { plain.distance(from: plain.startIndex, to: $0.lowerBound) },
                       TmuxSession.framed(tmux.screen()))
    }
}

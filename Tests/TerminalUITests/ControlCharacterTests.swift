import TerminalKit
import TerminalUI
import XCTest

/// Control characters in names and values are drawn escaped (`\x1b`, `\t`), as `shelf list`
/// and `shelf check` print them, in exactly the columns their width counts.
final class ControlCharacterTests: XCTestCase {
    private static let controls: [Unicode.Scalar] =
        (Array(0..<0x20) + [0x7F] + Array(0x80..<0xA0)).map { Unicode.Scalar(UInt8($0)) }

    func testEveryControlCharacterIsDrawnEscapedInTheColumnsItIsCountedFor() {
        for scalar in Self.controls {
            let escape = scalar.value == 0x09 ? "\\t" : scalar.value == 0x0A ? "\\n" : scalar.value == 0x0D ? "\\r"
                : String(format: "\\x%02x", scalar.value)
            let text = "a\(Character(scalar))b"
            var canvas = Canvas(width: 8, height: 1)
            let written = canvas.write(text, at: .zero)
            XCTAssertEqual(canvas.lines, ["a\(escape)b".padded(toWidth: 8)], "U+\(String(scalar.value, radix: 16))")
            XCTAssertEqual(written, escape.count + 2, "U+\(String(scalar.value, radix: 16))")
            XCTAssertEqual(DisplayWidth.of(text), written, "U+\(String(scalar.value, radix: 16))")
        }
        XCTAssertEqual(DisplayWidth.of("\r\n" as Character), 4)
    }

    func testAnIDWithAnEscapeKeepsTheNextColumnInPlace() {
        let layout = TableLayout(columns: [ColumnSpec("ID", minWidth: 20), ColumnSpec("Title", minWidth: 6, weight: 1)], width: 30)
        var canvas = Canvas(width: 30, height: 2)
        canvas.write(layout.row([[Span("evil\u{1B}[2Jname")], [Span("Dune")]]), at: .zero)
        canvas.write(layout.row([[Span("plain")], [Span("Emma")]]), at: Point(x: 0, y: 1))
        XCTAssertEqual(canvas.lines, ["evil\\x1b[2Jname".padded(toWidth: 22) + "Dune    ", "plain".padded(toWidth: 22) + "Emma    "])
    }

    func testACutEscapeEndsInAnEllipsisLikeAnyText() {
        XCTAssertEqual("ab\u{1B}cd".truncated(toWidth: 5), "ab…")
    }
}

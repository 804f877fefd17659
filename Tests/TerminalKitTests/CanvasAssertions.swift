import TerminalKit
import XCTest

/// Compares a canvas with the screen it should show, written as a multi-line string literal.
/// Trailing spaces may be left out of `expected` (editors strip them): each expected line is
/// padded to the canvas width before comparing, so the whole width is still checked.
func assertLines(_ canvas: Canvas, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    var expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while expectedLines.count < canvas.height { expectedLines.append("") }
    let padded = expectedLines.map { $0.padded(toWidth: canvas.width) }
    if canvas.lines != padded {
        let show = { (lines: [String]) in lines.map { "|\($0)|" }.joined(separator: "\n") }
        XCTFail("canvas differs\nexpected:\n\(show(padded))\nactual:\n\(show(canvas.lines))", file: file, line: line)
    }
}

/// A canvas with `widget` drawn over all of it.
func rendered(_ widget: some Widget, width: Int, height: Int) -> Canvas {
    var canvas = Canvas(width: width, height: height)
    widget.render(into: &canvas, area: canvas.bounds)
    return canvas
}

import TerminalKit
import XCTest

final class KeySequencesTests: XCTestCase {
    private func keys(_ text: String) -> [Key] {
        text.map { $0 == "\u{1B}" ? Key.escape : .character($0) }
    }

    func testEveryTerminalsHomeAndEndAreRegistered() {
        let table = Dictionary(KeySequences.alternates.map { ($0.sequence, $0.key) }, uniquingKeysWith: { first, _ in first })
        for home in ["\u{1B}[1~", "\u{1B}[7~", "\u{1B}[H", "\u{1B}OH"] { XCTAssertEqual(table[home], .home, home.debugDescription) }
        for end in ["\u{1B}[4~", "\u{1B}[8~", "\u{1B}[F", "\u{1B}OF"] { XCTAssertEqual(table[end], .end, end.debugDescription) }
        XCTAssertEqual(table["\u{1B}[3~"], .delete)
        XCTAssertEqual(table["\u{1B}[5~"], .pageUp)
        XCTAssertEqual(table["\u{1B}[6~"], .pageDown)
        XCTAssertEqual(table["\u{1B}[Z"], .backTab)
        XCTAssertEqual(table["\u{1B}OA"], .up)
        XCTAssertEqual(table["\u{1B}[B"], .down)
    }

    func testSplitSequencesFoldBackIntoOneKey() {
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[4~d")), [.end, .character("d")])
        XCTAssertEqual(KeySequences.fold(keys("j\u{1B}[1;5Hk")), [.character("j"), .home, .character("k")])
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}OF")), [.end])
    }

    func testAnUnknownSequenceBecomesOneUnknownKeyNotCommands() {
        let folded = KeySequences.fold(keys("\u{1B}[24~"))
        XCTAssertEqual(folded.count, 1)
        guard case .unknown = folded[0] else { return XCTFail("\(folded)") }
    }

    func testALoneEscOrEscBeforeOtherKeysStays() {
        XCTAssertEqual(KeySequences.fold([.escape]), [.escape])
        XCTAssertEqual(KeySequences.fold([.escape, .character("q")]), [.escape, .character("q")])
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[")), keys("\u{1B}["), "an unfinished sequence is left alone")
    }

    /// A mouse report reaches the app as characters when terminfo expects the other encoding
    /// (TERM=tmux-256color expects X10 `ESC [ M`, xterm-256color SGR `ESC [ <`): every encoding
    /// folds into one mouse event, and never runs as keys.
    func testMouseReportsInEveryEncodingFoldIntoOneMouseEvent() {
        let click = Key.mouse(MouseEvent(.press, at: Point(x: 10, y: 6)))
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[<0;11;7M")), [click], "SGR (1006)")
        XCTAssertEqual(KeySequences.fold(keys("j\u{1B}[<0;11;7M\u{1B}[<0;11;7mk")),
                       [.character("j"), click, .mouse(MouseEvent(.other, at: Point(x: 10, y: 6))), .character("k")],
                       "a release is one ignored event")
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[<64;3;4M\u{1B}[<65;3;4M")),
                       [.mouse(MouseEvent(.wheelUp, at: Point(x: 2, y: 3))), .mouse(MouseEvent(.wheelDown, at: Point(x: 2, y: 3)))])
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[<16;11;7M")), [click], "Ctrl-click is a click")
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[<2;11;7M")), [.mouse(MouseEvent(.other, at: Point(x: 10, y: 6)))], "the right button")
        // X10/normal: ESC [ M and three bytes, each 32 more than the button, column and row.
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[M +'")), [click], "X10")
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[M`#$q")), [.mouse(MouseEvent(.wheelUp, at: Point(x: 2, y: 3))), .character("q")])
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[M#+'")), [.mouse(MouseEvent(.other, at: Point(x: 10, y: 6)))], "an X10 release")
        // urxvt (1015): the X10 numbers, in decimal.
        XCTAssertEqual(KeySequences.fold(keys("\u{1B}[32;11;7M")), [click], "urxvt")
    }
}

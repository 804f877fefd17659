import TerminalUI
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
}

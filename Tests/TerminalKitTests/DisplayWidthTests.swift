import TerminalKit
import XCTest

final class DisplayWidthTests: XCTestCase {
    /// A control takes its escape's columns (`\x07`, `\r\n`): see ControlCharacterTests.
    func testASCIIIsOneColumnAndControlsTheirEscapes() {
        XCTAssertEqual(DisplayWidth.of("a"), 1)
        XCTAssertEqual(DisplayWidth.of("hello"), 5)
        XCTAssertEqual(DisplayWidth.of("\u{7}" as Character), 4)
        XCTAssertEqual(DisplayWidth.of("\r\n" as Character), 4)
    }

    func testEastAsianWideAndFullwidthAreTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("漢" as Character), 2)
        XCTAssertEqual(DisplayWidth.of("吾輩は猫である"), 14)
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)          // Hangul syllables
        XCTAssertEqual(DisplayWidth.of("Ａ" as Character), 2)  // fullwidth Latin
        XCTAssertEqual(DisplayWidth.of("ｱ" as Character), 1)  // halfwidth katakana
        XCTAssertEqual(DisplayWidth.of("\u{20000}" as Character), 2)  // CJK extension B
    }

    func testEmojiWithEmojiPresentationAreTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("🍵" as Character), 2)
        XCTAssertEqual(DisplayWidth.of("📚🐉"), 4)
        XCTAssertEqual(DisplayWidth.of("🤖" as Character), 2)  // U+1F916, supplemental symbols
        XCTAssertEqual(DisplayWidth.of("👍🏽" as Character), 2)  // skin tone adds nothing
        XCTAssertEqual(DisplayWidth.of("👩‍💻" as Character), 2)  // ZWJ sequence: one grapheme
    }

    func testTextPresentationSymbolsStayNarrow() {
        // wcwidth gives these 1 even with a variation selector, and so must the canvas.
        XCTAssertEqual(DisplayWidth.of("❤" as Character), 1)
        XCTAssertEqual(DisplayWidth.of("❤️" as Character), 1)
        XCTAssertEqual(DisplayWidth.of("×" as Character), 1)
        XCTAssertEqual(DisplayWidth.of("…" as Character), 1)
        XCTAssertEqual(DisplayWidth.of("─" as Character), 1)
    }

    func testCombiningMarksAndJoinersAddNothing() {
        XCTAssertEqual(DisplayWidth.of("e\u{301}" as Character), 1)
        XCTAssertEqual(DisplayWidth.of("étude"), 5)
        XCTAssertEqual(DisplayWidth.of("e\u{301}tude"), 5)
        XCTAssertEqual(DisplayWidth.of("\u{301}" as Unicode.Scalar), 0)
        XCTAssertEqual(DisplayWidth.of("\u{200D}" as Unicode.Scalar), 0)
        XCTAssertEqual(DisplayWidth.of("\u{FE0F}" as Unicode.Scalar), 0)
        XCTAssertEqual(DisplayWidth.of("\u{200B}" as Character), 0)  // zero-width space
    }

    func testTruncatedAddsAnEllipsisAndNeverSplitsAWideCharacter() {
        XCTAssertEqual("Hitchhiker".truncated(toWidth: 20), "Hitchhiker")
        XCTAssertEqual("Hitchhiker".truncated(toWidth: 10), "Hitchhiker")
        XCTAssertEqual("Hitchhiker".truncated(toWidth: 6), "Hitch…")
        XCTAssertEqual("漢字漢字".truncated(toWidth: 6), "漢字…")   // 5 columns: 漢 would straddle
        XCTAssertEqual("漢字漢字".truncated(toWidth: 5), "漢字…")
        XCTAssertEqual("🍵🍵🍵".truncated(toWidth: 4), "🍵…")
        XCTAssertEqual("abc".truncated(toWidth: 1), "…")
        XCTAssertEqual("abc".truncated(toWidth: 0), "")
    }

    func testPadded() {
        XCTAssertEqual("漢a".padded(toWidth: 5), "漢a  ")
        XCTAssertEqual("long".padded(toWidth: 2), "long")
    }
}

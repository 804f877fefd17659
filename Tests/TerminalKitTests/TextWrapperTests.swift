import TerminalKit
import XCTest

final class TextWrapperTests: XCTestCase {
    func testWrapsAtSpaces() {
        XCTAssertEqual(TextWrapper.wrap("the quick brown fox jumps", width: 10),
                       ["the quick", "brown fox", "jumps"])
    }

    func testKeepsALineThatFitsAsItIs() {
        XCTAssertEqual(TextWrapper.wrap(" #ff0000 ", width: 10), [" #ff0000 "])
        XCTAssertEqual(TextWrapper.wrap("", width: 10), [""])
    }

    func testCutsAWordLongerThanTheLine() {
        XCTAssertEqual(TextWrapper.wrap("https://example.com/a/b", width: 8),
                       ["https://", "example.", "com/a/b"])
    }

    func testWrapsByDisplayWidthWithoutSplittingWideCharacters() {
        XCTAssertEqual(TextWrapper.wrap("吾輩は猫である", width: 5), ["吾輩", "は猫", "であ", "る"])
        XCTAssertEqual(TextWrapper.wrap("tea 🍵🍵 time", width: 6), ["tea", "🍵🍵", "time"])
    }

    func testBreaksAtNewlines() {
        XCTAssertEqual(TextWrapper.wrap("one\ntwo three", width: 5), ["one", "two", "three"])
    }
}

final class TextWrapperLimitTests: XCTestCase {
    func testStopsAfterTheLinesAskedFor() {
        let word = String(repeating: "x", count: 1 << 20)
        XCTAssertEqual(TextWrapper.wrap(word, width: 50, maxLines: 3), Array(repeating: String(repeating: "x", count: 50), count: 3))
        XCTAssertEqual(TextWrapper.wrap("one two\nthree four", width: 4, maxLines: 2), ["one", "two"])
    }

    func testAWordAfterOthersStartsItsOwnLineAndIsCut() {
        XCTAssertEqual(TextWrapper.wrap("ab  cdefghij k", width: 4), ["ab", "cdef", "ghij", "k"])
        XCTAssertEqual(TextWrapper.wrap("本本本", width: 1), ["本", "本", "本"])
    }

    /// Text left out past `maxLines` is marked by "…" ending the last line; text that fits is not.
    func testMarkingCutEndsTheLastLineWithAnEllipsis() {
        XCTAssertEqual(TextWrapper.wrap("one two three four", width: 7, maxLines: 2, markingCut: true), ["one two", "three…"])
        XCTAssertEqual(TextWrapper.wrap("one two three fours", width: 5, maxLines: 2, markingCut: true), ["one", "two…"])
        XCTAssertEqual(TextWrapper.wrap("one two", width: 7, maxLines: 1, markingCut: true), ["one two"])
        XCTAssertEqual(TextWrapper.wrap("one two three", width: 7, maxLines: 2, markingCut: true), ["one two", "three"])
    }
}

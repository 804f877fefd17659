import TerminalUI
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

import TerminalKit
import TerminalUI
import XCTest

final class ColorModeTests: XCTestCase {
    func testChosenFromTheColourCount() {
        XCTAssertEqual(ColorMode(colorCount: 256, noColor: nil), .palette256)
        XCTAssertEqual(ColorMode(colorCount: 16_777_216, noColor: nil), .palette256)
        XCTAssertEqual(ColorMode(colorCount: 88, noColor: nil), .basic16)
        XCTAssertEqual(ColorMode(colorCount: 16, noColor: nil), .basic16)
        XCTAssertEqual(ColorMode(colorCount: 8, noColor: nil), .basic8)
        XCTAssertEqual(ColorMode(colorCount: 0, noColor: nil), ColorMode.none)
    }

    func testNoColorSetAndNotEmptyTurnsColourOff() {
        XCTAssertEqual(ColorMode(colorCount: 256, noColor: "1"), ColorMode.none)
        XCTAssertEqual(ColorMode(colorCount: 256, noColor: "yes please"), ColorMode.none)
        XCTAssertEqual(ColorMode(colorCount: 256, noColor: ""), .palette256)
    }

    func testResolvingColours() {
        let orange = TerminalColor.rgb(red: 255, green: 128, blue: 0)
        XCTAssertEqual(ColorMode.palette256.paletteIndex(for: orange), 208)
        XCTAssertEqual(ColorMode.palette256.paletteIndex(for: .rgb(red: 128, green: 128, blue: 128)), 244)
        XCTAssertNil(ColorMode.palette256.paletteIndex(for: .default))
        XCTAssertNil(ColorMode.none.paletteIndex(for: orange))
        XCTAssertEqual(ColorMode.basic8.paletteIndex(for: .rgb(red: 0, green: 0, blue: 250)), 4)
        XCTAssertFalse(ColorMode.none.usesColor)
        XCTAssertTrue(ColorMode.basic8.usesColor)
    }
}

import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

final class SwatchTests: XCTestCase {
    func testIn256ColourModeCellsHaveTheColourAsBackground() throws {
        let swatch = Swatch(color: try Color(hex: "#ff0000"), mode: .palette256)
        let canvas = rendered(swatch, width: 9, height: 3)
        assertLines(canvas, """

             #ff0000
            """)
        for y in 0..<3 {
            for x in 0..<9 {
                let style = canvas.style(at: Point(x: x, y: y))
                XCTAssertEqual(style.background, .rgb(red: 255, green: 0, blue: 0))
                XCTAssertEqual(ColorMode.palette256.paletteIndex(for: style.background), 196)
                XCTAssertFalse(style.reverse)
            }
        }
        // Readable text: white on red.
        XCTAssertEqual(ColorMode.palette256.paletteIndex(for: canvas.style(at: Point(x: 1, y: 1)).foreground), 231)
    }

    func testALightColourGetsBlackText() throws {
        let canvas = rendered(Swatch(color: try Color(hex: "#f5f5dc"), mode: .palette256), width: 9, height: 1)
        XCTAssertEqual(canvas.style(at: Point(x: 1, y: 0)).foreground, .rgb(red: 0, green: 0, blue: 0))
        XCTAssertEqual(ColorMode.palette256.paletteIndex(for: canvas.style(at: .zero).background), 230)
    }

    func testATranslucentColourIsBlendedOverTheTerminalBackground() throws {
        let color = try Color(hex: "#ff000080")
        let overBlack = rendered(Swatch(color: color, mode: .palette256), width: 10, height: 1)
        XCTAssertEqual(overBlack.style(at: .zero).background, .rgb(red: 128, green: 0, blue: 0))
        XCTAssertEqual(ColorMode.palette256.paletteIndex(for: overBlack.style(at: .zero).background), 88)
        assertLines(overBlack, "#ff000080")

        let overWhite = rendered(Swatch(color: color, mode: .palette256, terminalBackground: .white), width: 10, height: 1)
        XCTAssertEqual(overWhite.style(at: .zero).background, .rgb(red: 255, green: 127, blue: 127))
    }

    func testWithoutColourTheHexIsShownInReverseVideo() throws {
        let swatch = Swatch(color: try Color(hex: "#3366cc"), mode: .none, showsHex: false)
        let canvas = rendered(swatch, width: 11, height: 3)
        assertLines(canvas, """

              #3366cc
            """)
        for y in 0..<3 {
            for x in 0..<11 {
                let style = canvas.style(at: Point(x: x, y: y))
                XCTAssertTrue(style.reverse)
                XCTAssertEqual(style.foreground, .default)
                XCTAssertEqual(style.background, .default)
            }
        }
    }

    func testWithoutHexInColourModesOnlyTheColourShows() throws {
        let swatch = Swatch(color: try Color(hex: "#00ff00"), mode: .palette256, showsHex: false)
        let canvas = rendered(swatch, width: 4, height: 2)
        assertLines(canvas, "")
        XCTAssertEqual(ColorMode.palette256.paletteIndex(for: canvas.style(at: Point(x: 3, y: 1)).background), 46)
    }

    func testBasicModesUseTheNearestBasicColour() throws {
        let swatch = Swatch(color: try Color(hex: "#ff0000"), mode: .basic16)
        let background = rendered(swatch, width: 9, height: 1).style(at: .zero).background
        XCTAssertEqual(ColorMode.basic16.paletteIndex(for: background), 9)
        XCTAssertEqual(ColorMode.basic8.paletteIndex(for: background), 1)
    }

    func testANarrowSwatchCutsTheHex() throws {
        assertLines(rendered(Swatch(color: try Color(hex: "#123456"), mode: .none), width: 5, height: 1), "#123…")
    }
}

import ShelfModels
import TerminalUI
import XCTest

final class XtermPaletteTests: XCTestCase {
    private func index(_ hex: String) throws -> Int {
        let color = try Color(hex: hex)
        return XtermPalette.index256(red: color.red, green: color.green, blue: color.blue)
    }

    private func rgb(_ index: Int) -> [UInt8] {
        let (r, g, b) = XtermPalette.rgb(ofIndex: index)
        return [r, g, b]
    }

    // MARK: - 256 colours (tmux's colour_find_rgb)

    func testKnownVectors() throws {
        XCTAssertEqual(try index("#ff8000"), 208)
        XCTAssertEqual(try index("#ff0000"), 196)
        XCTAssertEqual(try index("#808080"), 244)
        XCTAssertEqual(try index("#000000"), 16)
        XCTAssertEqual(try index("#ffffff"), 231)
        XCTAssertEqual(try index("#eeeeee"), 255)
        XCTAssertEqual(try index("#123456"), 23)
    }

    func testExactCubeAndGreyColoursMapToThemselves() {
        for index in 16...255 {
            let (r, g, b) = XtermPalette.rgb(ofIndex: index)
            XCTAssertEqual(XtermPalette.index256(red: r, green: g, blue: b), index, "index \(index)")
        }
    }

    func testNeverReturnsBasicColours() {
        var seen = Set<Int>()
        for red in stride(from: 0, through: 255, by: 17) {
            for green in stride(from: 0, through: 255, by: 17) {
                for blue in stride(from: 0, through: 255, by: 17) {
                    let index = XtermPalette.index256(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    XCTAssertTrue((16...255).contains(index), "#\(red),\(green),\(blue) -> \(index)")
                    seen.insert(index)
                }
            }
        }
        XCTAssertGreaterThan(seen.count, 100, "the grid should reach much of the palette")
    }

    func testGreyOnlyWhenStrictlyCloser() throws {
        // #040404: cube 16 (0,0,0) is 3*4^2 = 48 away, grey 232 (8,8,8) is 3*4^2 = 48 too: a tie
        // keeps the cube colour.
        XCTAssertEqual(try index("#040404"), 16)
        // #00000c: cube 16 at 12^2 = 144, grey 232 at 8^2+8^2+4^2 = 144: a tie again.
        XCTAssertEqual(try index("#00000c"), 16)
        // #050505: cube 16 at 75, grey 232 at 27: the grey wins.
        XCTAssertEqual(try index("#050505"), 232)
        // #002240: cube 17 (0,0,95) at 34^2+31^2 = 2117, grey 234 (28,28,28) at
        // 28^2+6^2+36^2 = 2116: closer by one, so the grey wins.
        XCTAssertEqual(try index("#002240"), 234)
    }

    func testGreyRampEnds() throws {
        // #f0f0f0: average 240 > 238 uses the last grey, 255 (238) at 12, cube white at 675.
        XCTAssertEqual(try index("#f0f0f0"), 255)
        // #fafafa: the last grey is 432 away, cube white (255) 75: the cube wins.
        XCTAssertEqual(try index("#fafafa"), 231)
        // #020202: average 2 gives grey step 0 (8, 8, 8) at 108, cube black at 12.
        XCTAssertEqual(try index("#020202"), 16)
    }

    func testIndexOverBackgroundComposites() throws {
        let halfRed = try Color(hex: "#ff000080")
        // Over black: #800000 -> cube (2,0,0) = 16 + 72 = 88.
        XCTAssertEqual(XtermPalette.index256(for: halfRed, over: .black), 88)
        // Over white: #ff7f7f -> cube (5,2,2) = 16 + 180 + 12 + 2 = 210.
        XCTAssertEqual(XtermPalette.index256(for: halfRed, over: .white), 210)
        // Opaque colours ignore the background.
        XCTAssertEqual(XtermPalette.index256(for: try Color(hex: "#ff8000"), over: .white), 208)
    }

    // MARK: - Index to RGB

    func testRGBOfIndex() {
        XCTAssertEqual(rgb(16), [0, 0, 0])
        XCTAssertEqual(rgb(196), [255, 0, 0])
        XCTAssertEqual(rgb(208), [255, 135, 0])
        XCTAssertEqual(rgb(231), [255, 255, 255])
        XCTAssertEqual(rgb(232), [8, 8, 8])
        XCTAssertEqual(rgb(244), [128, 128, 128])
        XCTAssertEqual(rgb(255), [238, 238, 238])
    }

    func testRGBOfBasicIndices() {
        XCTAssertEqual(rgb(0), [0, 0, 0])
        XCTAssertEqual(rgb(1), [205, 0, 0])
        XCTAssertEqual(rgb(4), [0, 0, 238])
        XCTAssertEqual(rgb(7), [229, 229, 229])
        XCTAssertEqual(rgb(8), [127, 127, 127])
        XCTAssertEqual(rgb(12), [92, 92, 255])
        XCTAssertEqual(rgb(15), [255, 255, 255])
    }

    // MARK: - Compositing

    func testCompositeHalfRed() throws {
        let halfRed = try Color(hex: "#ff000080")
        XCTAssertEqual(XtermPalette.composite(halfRed, over: .black).hex, "#800000")
        XCTAssertEqual(XtermPalette.composite(halfRed, over: .white).hex, "#ff7f7f")
    }

    func testCompositeExtremes() throws {
        let opaque = try Color(hex: "#123456")
        XCTAssertEqual(XtermPalette.composite(opaque, over: .white), opaque)
        let clear = try Color(hex: "#12345600")
        XCTAssertEqual(XtermPalette.composite(clear, over: .white), .white)
        XCTAssertEqual(XtermPalette.composite(clear, over: try Color(hex: "#abcdef")).hex, "#abcdef")
    }

    func testCompositeIsAlwaysOpaque() throws {
        let background = try Color(hex: "#20202080")
        XCTAssertTrue(XtermPalette.composite(try Color(hex: "#ff000080"), over: background).isOpaque)
    }

    // MARK: - 16 and 8 colours

    func testNearest16() throws {
        XCTAssertEqual(XtermPalette.nearest16(red: 255, green: 0, blue: 0), 9)
        XCTAssertEqual(XtermPalette.nearest16(red: 200, green: 10, blue: 10), 1)
        XCTAssertEqual(XtermPalette.nearest16(red: 0, green: 0, blue: 0), 0)
        XCTAssertEqual(XtermPalette.nearest16(red: 255, green: 255, blue: 255), 15)
        XCTAssertEqual(XtermPalette.nearest16(red: 128, green: 128, blue: 128), 8)
        XCTAssertEqual(XtermPalette.nearest16(red: 80, green: 80, blue: 250), 12)
        XCTAssertEqual(XtermPalette.nearest16(for: try Color(hex: "#f05138"), over: .black), 9)
    }

    func testNearest8() throws {
        XCTAssertEqual(XtermPalette.nearest8(red: 255, green: 0, blue: 0), 1)
        XCTAssertEqual(XtermPalette.nearest8(red: 255, green: 255, blue: 255), 7)
        XCTAssertEqual(XtermPalette.nearest8(red: 0, green: 0, blue: 0), 0)
        XCTAssertEqual(XtermPalette.nearest8(red: 255, green: 255, blue: 0), 3)
        XCTAssertEqual(XtermPalette.nearest8(red: 0, green: 0, blue: 255), 4)
        XCTAssertEqual(XtermPalette.nearest8(red: 40, green: 40, blue: 40), 0)
        XCTAssertEqual(XtermPalette.nearest8(for: try Color(hex: "#ff00ff80"), over: .white), 7)
    }

    func testNearestStaysInRange() {
        for value in stride(from: 0, through: 255, by: 51) {
            let v = UInt8(value)
            XCTAssertTrue((0...15).contains(XtermPalette.nearest16(red: v, green: 255 - v, blue: v / 2)))
            XCTAssertTrue((0...7).contains(XtermPalette.nearest8(red: v, green: 255 - v, blue: v / 2)))
        }
    }
}

import TerminalKit
import XCTest

final class XtermPaletteTests: XCTestCase {
    private func index(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        XtermPalette.index256(red: red, green: green, blue: blue)
    }

    private func rgb(_ index: Int) -> [UInt8] {
        let (r, g, b) = XtermPalette.rgb(ofIndex: index)
        return [r, g, b]
    }

    // MARK: - 256 colours (tmux's colour_find_rgb)

    func testKnownVectors() throws {
        XCTAssertEqual(index(0xff, 0x80, 0x00), 208)
        XCTAssertEqual(index(0xff, 0x00, 0x00), 196)
        XCTAssertEqual(index(0x80, 0x80, 0x80), 244)
        XCTAssertEqual(index(0x00, 0x00, 0x00), 16)
        XCTAssertEqual(index(0xff, 0xff, 0xff), 231)
        XCTAssertEqual(index(0xee, 0xee, 0xee), 255)
        XCTAssertEqual(index(0x12, 0x34, 0x56), 23)
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
        XCTAssertEqual(index(0x04, 0x04, 0x04), 16)
        // #00000c: cube 16 at 12^2 = 144, grey 232 at 8^2+8^2+4^2 = 144: a tie again.
        XCTAssertEqual(index(0x00, 0x00, 0x0c), 16)
        // #050505: cube 16 at 75, grey 232 at 27: the grey wins.
        XCTAssertEqual(index(0x05, 0x05, 0x05), 232)
        // #002240: cube 17 (0,0,95) at 34^2+31^2 = 2117, grey 234 (28,28,28) at
        // 28^2+6^2+36^2 = 2116: closer by one, so the grey wins.
        XCTAssertEqual(index(0x00, 0x22, 0x40), 234)
    }

    func testGreyRampEnds() throws {
        // #f0f0f0: average 240 > 238 uses the last grey, 255 (238) at 12, cube white at 675.
        XCTAssertEqual(index(0xf0, 0xf0, 0xf0), 255)
        // #fafafa: the last grey is 432 away, cube white (255) 75: the cube wins.
        XCTAssertEqual(index(0xfa, 0xfa, 0xfa), 231)
        // #020202: average 2 gives grey step 0 (8, 8, 8) at 108, cube black at 12.
        XCTAssertEqual(index(0x02, 0x02, 0x02), 16)
    }

    func testIndexOverBackgroundComposites() throws {
        let halfRed = RGBColor(red: 0xff, green: 0x00, blue: 0x00, alpha: 0x80)
        // Over black: #800000 -> cube (2,0,0) = 16 + 72 = 88.
        XCTAssertEqual(XtermPalette.index256(for: halfRed, over: .black), 88)
        // Over white: #ff7f7f -> cube (5,2,2) = 16 + 180 + 12 + 2 = 210.
        XCTAssertEqual(XtermPalette.index256(for: halfRed, over: .white), 210)
        // Opaque colours ignore the background.
        XCTAssertEqual(XtermPalette.index256(for: RGBColor(red: 0xff, green: 0x80, blue: 0x00), over: .white), 208)
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
        let halfRed = RGBColor(red: 0xff, green: 0x00, blue: 0x00, alpha: 0x80)
        XCTAssertEqual(XtermPalette.composite(halfRed, over: .black), RGBColor(red: 0x80, green: 0x00, blue: 0x00))
        XCTAssertEqual(XtermPalette.composite(halfRed, over: .white), RGBColor(red: 0xff, green: 0x7f, blue: 0x7f))
    }

    func testCompositeExtremes() throws {
        let opaque = RGBColor(red: 0x12, green: 0x34, blue: 0x56)
        XCTAssertEqual(XtermPalette.composite(opaque, over: .white), opaque)
        let clear = RGBColor(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x00)
        XCTAssertEqual(XtermPalette.composite(clear, over: .white), .white)
        XCTAssertEqual(XtermPalette.composite(clear, over: RGBColor(red: 0xab, green: 0xcd, blue: 0xef)), RGBColor(red: 0xab, green: 0xcd, blue: 0xef))
    }

    func testCompositeIsAlwaysOpaque() throws {
        let background = RGBColor(red: 0x20, green: 0x20, blue: 0x20, alpha: 0x80)
        XCTAssertTrue(XtermPalette.composite(RGBColor(red: 0xff, green: 0x00, blue: 0x00, alpha: 0x80), over: background).alpha == 255)
    }

    // MARK: - 16 and 8 colours

    func testNearest16() throws {
        XCTAssertEqual(XtermPalette.nearest16(red: 255, green: 0, blue: 0), 9)
        XCTAssertEqual(XtermPalette.nearest16(red: 200, green: 10, blue: 10), 1)
        XCTAssertEqual(XtermPalette.nearest16(red: 0, green: 0, blue: 0), 0)
        XCTAssertEqual(XtermPalette.nearest16(red: 255, green: 255, blue: 255), 15)
        XCTAssertEqual(XtermPalette.nearest16(red: 128, green: 128, blue: 128), 8)
        XCTAssertEqual(XtermPalette.nearest16(red: 80, green: 80, blue: 250), 12)
        XCTAssertEqual(XtermPalette.nearest16(for: RGBColor(red: 0xf0, green: 0x51, blue: 0x38), over: .black), 9)
    }

    func testNearest8() throws {
        XCTAssertEqual(XtermPalette.nearest8(red: 255, green: 0, blue: 0), 1)
        XCTAssertEqual(XtermPalette.nearest8(red: 255, green: 255, blue: 255), 7)
        XCTAssertEqual(XtermPalette.nearest8(red: 0, green: 0, blue: 0), 0)
        XCTAssertEqual(XtermPalette.nearest8(red: 255, green: 255, blue: 0), 3)
        XCTAssertEqual(XtermPalette.nearest8(red: 0, green: 0, blue: 255), 4)
        XCTAssertEqual(XtermPalette.nearest8(red: 40, green: 40, blue: 40), 0)
        XCTAssertEqual(XtermPalette.nearest8(for: RGBColor(red: 0xff, green: 0x00, blue: 0xff, alpha: 0x80), over: .white), 7)
    }

    func testNearestStaysInRange() {
        for value in stride(from: 0, through: 255, by: 51) {
            let v = UInt8(value)
            XCTAssertTrue((0...15).contains(XtermPalette.nearest16(red: v, green: 255 - v, blue: v / 2)))
            XCTAssertTrue((0...7).contains(XtermPalette.nearest8(red: v, green: 255 - v, blue: v / 2)))
        }
    }
}

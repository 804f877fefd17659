import Foundation
import ShelfModels
import XCTest

final class ColorTests: XCTestCase {
    private let accepted = "expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA"

    // MARK: - Accepted forms

    func testShortFormExpandsEachDigit() throws {
        XCTAssertEqual(try Color(hex: "#f0a"), Color(red: 0xff, green: 0x00, blue: 0xaa))
        XCTAssertEqual(try Color(hex: "#123"), Color(red: 0x11, green: 0x22, blue: 0x33))
        XCTAssertEqual(try Color(hex: "#f0a").alpha, 255)
    }

    func testShortFormWithAlpha() throws {
        XCTAssertEqual(try Color(hex: "#f0a8"), Color(red: 0xff, green: 0x00, blue: 0xaa, alpha: 0x88))
        XCTAssertEqual(try Color(hex: "#0000"), Color(red: 0, green: 0, blue: 0, alpha: 0))
    }

    func testLongForm() throws {
        XCTAssertEqual(try Color(hex: "#f05138"), Color(red: 0xf0, green: 0x51, blue: 0x38))
        XCTAssertEqual(try Color(hex: "#f05138").alpha, 255)
    }

    func testLongFormWithAlpha() throws {
        XCTAssertEqual(try Color(hex: "#4682b480"), Color(red: 0x46, green: 0x82, blue: 0xb4, alpha: 0x80))
        XCTAssertEqual(try Color(hex: "#000000ff"), Color.black)
    }

    func testAnyCase() throws {
        let expected = Color(red: 0xab, green: 0xcd, blue: 0xef)
        XCTAssertEqual(try Color(hex: "#abcdef"), expected)
        XCTAssertEqual(try Color(hex: "#ABCDEF"), expected)
        XCTAssertEqual(try Color(hex: "#aBcDeF"), expected)
        XCTAssertEqual(try Color(hex: "#FfF"), Color.white)
        XCTAssertEqual(try Color(hex: "#AbCd"), Color(red: 0xaa, green: 0xbb, blue: 0xcc, alpha: 0xdd))
    }

    func testSurroundingWhitespaceIsTrimmed() throws {
        XCTAssertEqual(try Color(hex: "  #ff0000  "), Color.red)
        XCTAssertEqual(try Color(hex: "\t#f00\n"), Color.red)
        XCTAssertEqual(try Color(hex: " #FF000080"), Color(red: 255, green: 0, blue: 0, alpha: 0x80))
    }

    // MARK: - Rejected input

    func testEmpty() {
        assertRejects("", as: .empty(input: ""), message: "the colour is empty: \(accepted)")
    }

    func testOnlySpaces() {
        assertRejects("   ", as: .empty(input: "   "),
                      message: #""   " has only whitespace: "# + accepted)
    }

    func testMissingHash() {
        assertRejects("ff0000", as: .missingHash(input: "ff0000"),
                      message: #""ff0000" is not a hex colour: it must start with '#'; "# + accepted)
        assertRejects("red", as: .missingHash(input: "red"),
                      message: #""red" is not a hex colour: it must start with '#'; "# + accepted)
        assertRejects(" f00#", as: .missingHash(input: " f00#"),
                      message: #"" f00#" is not a hex colour: it must start with '#'; "# + accepted)
    }

    func testHashAlone() {
        assertRejects("#", as: .wrongLength(input: "#", digits: 0),
                      message: ##""#" is not a hex colour: "## + accepted + ", found 0 hex digits")
    }

    func testWrongLengths() {
        for (input, digits) in [("#1", 1), ("#12", 2), ("#12345", 5), ("#1234567", 7), ("#123456789", 9)] {
            let found = digits == 1 ? "1 hex digit" : "\(digits) hex digits"
            assertRejects(input, as: .wrongLength(input: input, digits: digits),
                          message: "\"\(input)\" is not a hex colour: \(accepted), found \(found)")
        }
    }

    func testNonHexCharacters() {
        assertRejects("#12g456", as: .notHexDigit(input: "#12g456", character: "g"),
                      message: ##""#12g456" has "g", which is not a hex digit: "## + accepted)
        assertRejects("#ff 000", as: .notHexDigit(input: "#ff 000", character: " "),
                      message: ##""#ff 000" has " ", which is not a hex digit: "## + accepted)
        assertRejects("##fff", as: .notHexDigit(input: "##fff", character: "#"),
                      message: ###""##fff" has "#", which is not a hex digit: "### + accepted)
        // Full-width digits count as hex digits for Character.isHexDigit, but not in CSS.
        assertRejects("#ｆｆ0000", as: .notHexDigit(input: "#ｆｆ0000", character: "ｆ"),
                      message: ##""#ｆｆ0000" has "ｆ", which is not a hex digit: "## + accepted)
        // A bad character is reported even when the length is wrong too.
        assertRejects("#xyz12", as: .notHexDigit(input: "#xyz12", character: "x"),
                      message: ##""#xyz12" has "x", which is not a hex digit: "## + accepted)
    }

    func testMessageEscapesAndShortensInput() {
        // Trailing whitespace is trimmed, so the newline has to be inside.
        let error = parseError("#12\n34")
        XCTAssertEqual(error?.description, ##""#12\n34" has "\n", which is not a hex digit: "## + accepted)

        let long = "#" + String(repeating: "a", count: 100)
        let message = parseError(long)?.description ?? ""
        XCTAssertTrue(message.hasPrefix("\"#" + String(repeating: "a", count: 39) + "…\" is not a hex colour"),
                      message)
        XCTAssertTrue(message.hasSuffix("found 100 hex digits"), message)
    }

    func testErrorKeepsInput() {
        XCTAssertEqual(parseError("#12345")?.input, "#12345")
        XCTAssertEqual(parseError(" nope ")?.input, " nope ")
    }

    // MARK: - Output

    func testHexIsCanonicalLowercase() throws {
        XCTAssertEqual(try Color(hex: "#F05138").hex, "#f05138")
        XCTAssertEqual(try Color(hex: "#f0f").hex, "#ff00ff")
        XCTAssertEqual(try Color(hex: "#f0f8").hex, "#ff00ff88")
        XCTAssertEqual(try Color(hex: "#ABCDEF80").hex, "#abcdef80")
        XCTAssertEqual(try Color(hex: "#abcdefff").hex, "#abcdef", "opaque alpha is left out")
        XCTAssertEqual(Color(red: 1, green: 2, blue: 3, alpha: 0).hex, "#01020300")
        XCTAssertEqual(Color.black.hex, "#000000")
        XCTAssertEqual(Color.white.hex, "#ffffff")
        XCTAssertEqual(Color.red.hex, "#ff0000")
    }

    func testDescriptionIsHex() throws {
        XCTAssertEqual(String(describing: try Color(hex: "#D52C67")), "#d52c67")
        XCTAssertEqual("\(Color(red: 0, green: 0, blue: 0, alpha: 0x80))", "#00000080")
    }

    func testRoundTripIsStable() throws {
        let inputs = ["#f05138", "#D52C67", "#fff", "#F0F8", "#00000000", "#abcdefff", " #123 ", "#4682B480"]
        for input in inputs {
            let once = try Color(hex: input)
            let twice = try Color(hex: once.hex)
            XCTAssertEqual(twice, once, input)
            XCTAssertEqual(twice.hex, once.hex, input)
        }
    }

    func testEveryByteRoundTrips() throws {
        for value in UInt8.min...UInt8.max {
            let color = Color(red: value, green: 255 - value, blue: value / 2, alpha: value)
            XCTAssertEqual(try Color(hex: color.hex), color)
        }
    }

    func testIsOpaque() throws {
        XCTAssertTrue(try Color(hex: "#f05138").isOpaque)
        XCTAssertTrue(try Color(hex: "#f05138ff").isOpaque)
        XCTAssertFalse(try Color(hex: "#f05138fe").isOpaque)
        XCTAssertFalse(try Color(hex: "#0000").isOpaque)
    }

    // MARK: - Codable

    private struct Swatch: Codable, Equatable {
        var name: String
        var color: Color
    }

    func testEncodesAsHexString() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(Swatch(name: "Cerise", color: try Color(hex: "#D52C67")))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), ##"{"color":"#d52c67","name":"Cerise"}"##)

        let translucent = try encoder.encode([Color(red: 0x46, green: 0x82, blue: 0xb4, alpha: 0x80)])
        XCTAssertEqual(String(decoding: translucent, as: UTF8.self), ##"["#4682b480"]"##)
    }

    func testDecodesEveryAcceptedForm() throws {
        let json = ##"["#f0f", "#F0F8", " #ff00ff ", "#ff00ff80"]"##
        let colors = try JSONDecoder().decode([Color].self, from: Data(json.utf8))
        XCTAssertEqual(colors.map(\.hex), ["#ff00ff", "#ff00ff88", "#ff00ff", "#ff00ff80"])
    }

    func testJSONRoundTrip() throws {
        let swatches = [
            Swatch(name: "Carmine Pink", color: try Color(hex: "#f05138")),
            Swatch(name: "Half Steel Blue", color: try Color(hex: "#4682b480")),
        ]
        let data = try JSONEncoder().encode(swatches)
        XCTAssertEqual(try JSONDecoder().decode([Swatch].self, from: data), swatches)
    }

    func testBadHexIsDataCorruptedAtTheField() throws {
        let json = ##"{"name": "Oops", "color": "#12g456"}"##
        XCTAssertThrowsError(try JSONDecoder().decode(Swatch.self, from: Data(json.utf8))) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("expected dataCorrupted, got \(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["color"])
            XCTAssertEqual(context.debugDescription, ##""#12g456" has "g", which is not a hex digit: "## + self.accepted)
            XCTAssertEqual(context.underlyingError as? ColorParseError,
                           .notHexDigit(input: "#12g456", character: "g"))
        }
    }

    func testNonStringIsATypeMismatch() {
        let json = #"{"name": "Oops", "color": 16711680}"#
        XCTAssertThrowsError(try JSONDecoder().decode(Swatch.self, from: Data(json.utf8))) { error in
            guard case DecodingError.typeMismatch = error else {
                return XCTFail("expected typeMismatch, got \(error)")
            }
        }
    }

    // MARK: - Readable text

    func testReadableTextColor() throws {
        XCTAssertEqual(try Color(hex: "#ffff00").readableTextColor, .black)
        XCTAssertEqual(try Color(hex: "#ffffff").readableTextColor, .black)
        XCTAssertEqual(try Color(hex: "#0000ff").readableTextColor, .white)
        XCTAssertEqual(try Color(hex: "#000000").readableTextColor, .white)
        XCTAssertEqual(try Color(hex: "#f05138").readableTextColor, .white)
        XCTAssertEqual(try Color(hex: "#b0f566").readableTextColor, .black)
    }

    func testReadableTextColorThreshold() {
        // 0.65 * 255 = 165.75: 166 is above the threshold, 165 is not.
        XCTAssertEqual(Color(red: 166, green: 166, blue: 0).readableTextColor, .black)
        XCTAssertEqual(Color(red: 165, green: 166, blue: 0).readableTextColor, .white)
        XCTAssertEqual(Color(red: 0, green: 166, blue: 166).readableTextColor, .black)
    }

    // MARK: - The sample's data

    func testSampleColors() throws {
        let carminePink = try Color(hex: "#f05138")
        XCTAssertEqual(carminePink, Color(red: 240, green: 81, blue: 56))
        XCTAssertEqual(carminePink.hex, "#f05138")
        XCTAssertEqual(carminePink.readableTextColor, .white)

        let cerise = try Color(hex: "#d52c67")
        XCTAssertEqual(cerise, Color(red: 213, green: 44, blue: 103))
        XCTAssertEqual(cerise.hex, "#d52c67")
        XCTAssertEqual(cerise.readableTextColor, .white)
    }

    func testSampleTagColors() throws {
        XCTAssertEqual(try Color(hex: "#131a2d").hex, "#131a2d")  // Space
        XCTAssertEqual(try Color(hex: "#d8bfbf").readableTextColor, .black)  // Tea
        XCTAssertEqual(try Color(hex: "#fd1d48").readableTextColor, .white)  // Improbability
    }

    func testStaticColors() {
        XCTAssertEqual(Color.black, Color(red: 0, green: 0, blue: 0, alpha: 255))
        XCTAssertEqual(Color.white, Color(red: 255, green: 255, blue: 255, alpha: 255))
        XCTAssertEqual(Color.red, Color(red: 255, green: 0, blue: 0, alpha: 255))
    }

    // MARK: - Helpers

    private func parseError(_ input: String) -> ColorParseError? {
        do {
            _ = try Color(hex: input)
            return nil
        } catch {
            return error
        }
    }

    private func assertRejects(_ input: String, as expected: ColorParseError, message: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let error = parseError(input) else {
            return XCTFail("\(String(reflecting: input)) was accepted", file: file, line: line)
        }
        XCTAssertEqual(error, expected, file: file, line: line)
        XCTAssertEqual(error.description, message, file: file, line: line)
    }
}

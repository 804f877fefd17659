@testable import DocumentStore
import XCTest

/// Firestore's server format of field paths, the one text requests, bundles and messages use:
/// a name that is not `[A-Za-z_][A-Za-z_0-9]*` in backticks, "\" escaping inside.
final class FieldPathServerFormatTests: XCTestCase {
    func testOnlyASCIIIdentifiersAreLeftUnquoted() {
        let cases: [([String], String)] = [
            (["cover", "small"], "cover.small"),
            (["_a1"], "_a1"),
            (["a.b"], "`a.b`"),
            (["1st"], "`1st`"),
            (["zip-code"], "`zip-code`"),
            (["caf\u{E9}"], "`caf\u{E9}`"),
            ([""], "``"),
            (["a`b\\c"], "`a\\`b\\\\c`"),
            (["__name__"], "__name__"),
        ]
        for (segments, text) in cases {
            XCTAssertEqual(FieldPath(segments).serverFormat, text)
            XCTAssertEqual(FieldPath(segments).description, text)
        }
    }

    func testEveryPathReadsBackFromItsServerFormat() throws {
        for segments in [["cover", "small"], ["a.b", "c"], ["caf\u{E9}"], ["a`b\\c", "x"], [""], ["`"], ["\\"], ["a b", "1"]] {
            XCTAssertEqual(try FieldPath.parse(serverFormat: FieldPath(segments).serverFormat), FieldPath(segments))
        }
    }

    func testUnquotedNamesAreTakenAsWritten() throws {
        XCTAssertEqual(try FieldPath.parse(serverFormat: "zip-code.caf\u{E9}"), FieldPath(["zip-code", "caf\u{E9}"]))
        XCTAssertTrue(try FieldPath.parse(serverFormat: "__name__").isDocumentID)
    }

    func testAMalformedPathSaysWhatIsWrong() {
        let cases = [
            ("", "the field path \"\" is empty"),
            ("a..b", "the field path \"a..b\" has an empty name"),
            ("a.", "the field path \"a.\" has an empty name"),
            ("a`b`", "the field path \"a`b`\" has a backtick inside a name"),
            ("`a`b", "the field path \"`a`b\" has text after a quoted name"),
            ("`a`.`b", "the field path \"`a`.`b\" has an unclosed backtick"),
            ("`a\\", "the field path \"`a\\\" has an unclosed backtick"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try FieldPath.parse(serverFormat: text), text) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }
}

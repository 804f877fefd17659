@testable import DocumentStore
import Foundation
import XCTest

/// One field's value as typed JSON text, for a person to edit: `storedJSON(ofField:)` writes it
/// on one line, `value(fromStoredJSON:field:)` reads it back as the same value, type and all,
/// or says what it expected.
final class StoredJSONValueTests: StoreTestCase {
    private var ref: DocumentReference { db.document("typed/doc") }

    /// Reads `text`, writes it as field `v`, and checks the store has `expected` and shows `text` again.
    private func assertRoundTrip(_ text: String, _ expected: FirestoreValue, file: StaticString = #filePath, line: UInt = #line) throws {
        try ref.set(["v": try db.value(fromStoredJSON: text, field: "v")])
        XCTAssertEqual(try storedFields("typed/doc")["v"], expected, file: file, line: line)
        XCTAssertEqual(try ref.readSnapshot().storedJSON(ofField: "v"), text, file: file, line: line)
    }

    func testEveryTypeRoundTripsOnOneLine() throws {
        try assertRoundTrip("null", .null)
        try assertRoundTrip("true", .boolean(true))
        try assertRoundTrip(#""Café ☕ \"42\"\n""#, .string("Café ☕ \"42\"\n"))
        try assertRoundTrip("9007199254740993", .integer(9_007_199_254_740_993))
        try assertRoundTrip("-9223372036854775808", .integer(.min))
        try assertRoundTrip("4.0", .double(4))
        try assertRoundTrip("-0.0", .double(-0.0))
        try assertRoundTrip("1e+300", .double(1e300))
        try assertRoundTrip(#"{"$double": "NaN"}"#, .double(.nan))
        try assertRoundTrip(#"{"$timestamp": "2024-05-06T07:08:09.123456Z"}"#,
                            .timestamp(Timestamp(seconds: 1_714_979_289, nanoseconds: 123_456_000)))
        try assertRoundTrip(#"{"$bytes": "AAEC/w=="}"#, .bytes(Data([0, 1, 2, 255])))
        try assertRoundTrip(#"{"$ref": "books/hitchhiker"}"#, .reference(db.document("books/hitchhiker")))
        try assertRoundTrip(#"{"$geopoint": {"latitude": 51.5, "longitude": -0.12}}"#, .geoPoint(GeoPoint(latitude: 51.5, longitude: -0.12)))
        try assertRoundTrip(#"{"$map": {"$x": [1, {"a b.c": null}]}}"#, .map(["$x": .array([.integer(1), .map(["a b.c": .null])])]))
        try assertRoundTrip("[]", .array([]))
        try assertRoundTrip("{}", .map([:]))
    }

    func testAFieldTheDocumentLacksHasNoText() throws {
        try ref.set(["a.b": 1])
        XCTAssertEqual(try ref.readSnapshot().storedJSON(ofField: "a.b"), "1", "a name, not a path")
        XCTAssertNil(try ref.readSnapshot().storedJSON(ofField: "a"))
    }

    func testATextTheStoreWouldNotTakeSaysWhatWasExpected() throws {
        let syntax = #"expected one JSON value ("text" in quotes, 42, 4.5, true, null, [ … ], { … }); "#
        let cases: [(String, String)] = [
            ("", syntax + "column 1: the text is empty"),
            ("Dune", syntax + "column 1: expected a value, found 'D'"),
            (#""Dune"#, syntax + "column 6: unterminated string"),
            ("[1,", syntax + "column 4: unexpected end of the text"),
            ("1 2", syntax + "column 3: unexpected text after the end of the JSON value"),
            (#"{"$ref": 5}"#, #"field v: {"$ref": …} expects a document path in a string, such as "books/hitchhiker", found the number 5"#),
            ("[[1]]", "field v[0]: an array cannot directly hold another array; put the inner array in a map"),
            (#"{"__x__": 1}"#, #"field v.__x__: field names that begin and end with "__" are reserved"#),
            ("99999999999999999999", "99999999999999999999 is outside the 64-bit integers (-9223372036854775808 to 9223372036854775807); for a double write it with a fraction or an exponent, such as 1e19"),
            (#"{"n": [-9223372036854775809]}"#, "-9223372036854775809 is outside the 64-bit integers (-9223372036854775808 to 9223372036854775807); for a double write it with a fraction or an exponent, such as -1e18"),
        ]
        for (text, message) in cases {
            let error = storeError { _ = try db.value(fromStoredJSON: text, field: "v") }
            XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue, text)
            XCTAssertEqual(error?.description, message, text)
        }
    }
}

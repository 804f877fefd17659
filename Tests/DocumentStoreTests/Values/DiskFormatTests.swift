@testable import DocumentStore
import Foundation
import XCTest

/// The JSON on disk, one test per row of the type table (Storage/DocumentJSON.swift): the exact
/// text written, and that it reads back as the same typed value. Plain JSON where the type is
/// plain; a one-key `$` object where JSON has no such type; `$map` for a map that looks like one.
final class DiskFormatTests: StoreTestCase {
    private var ref: DocumentReference { db.collection("disk").document("doc") }

    /// Writes `["v": value]`, checks the file is exactly `{"v": <json>}` as the store formats it,
    /// and that the value reads back as `expected`.
    private func assertRow(_ value: Any, _ json: String, _ expected: FirestoreValue,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        try ref.set(["v": value])
        let indented = json.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
        XCTAssertEqual(store.readFile("disk/doc.json"), "{\n  \"v\": \(indented)\n}\n", file: file, line: line)
        XCTAssertEqual(try storedFields("disk/doc")["v"], expected, file: file, line: line)
    }

    // MARK: Plain JSON

    func testNull() throws {
        try assertRow(NSNull(), "null", .null)
    }

    func testBooleans() throws {
        try assertRow(true, "true", .boolean(true))
        try assertRow(false, "false", .boolean(false))
    }

    func testStrings() throws {
        try assertRow("Café ☕ \"42\"\n", #""Café ☕ \"42\"\n""#, .string("Café ☕ \"42\"\n"))
    }

    func testAStringThatLooksLikeATimestampStaysAString() throws {
        try assertRow("2014-09-09T00:00:00Z", #""2014-09-09T00:00:00Z""#, .string("2014-09-09T00:00:00Z"))
        XCTAssertEqual(try awaitData()?["v"] as? String, "2014-09-09T00:00:00Z")
        XCTAssertNil(try awaitData()?["v"] as? Timestamp)
    }

    func testIntegersAreLiteralsWithAll64Bits() throws {
        try assertRow(42, "42", .integer(42))
        try assertRow(Int64.max, "9223372036854775807", .integer(.max))
        try assertRow(Int64.min, "-9223372036854775808", .integer(.min))
        try assertRow(9_007_199_254_740_993, "9007199254740993", .integer(9_007_199_254_740_993))
    }

    func testDoublesAlwaysHaveAFractionOrAnExponent() throws {
        try assertRow(4.0, "4.0", .double(4))
        try assertRow(0.1, "0.1", .double(0.1))
        try assertRow(-0.0, "-0.0", .double(-0.0))
        try assertRow(1.5e300, "1.5e+300", .double(1.5e300))
        try assertRow(Double.leastNonzeroMagnitude, "5e-324", .double(.leastNonzeroMagnitude))
        try assertRow(Float(1.5), "1.5", .double(1.5))
    }

    func testArraysAndMaps() throws {
        try assertRow([1, "a"] as [Any], "[\n  1,\n  \"a\"\n]", .array([.integer(1), .string("a")]))
        try assertRow(["b": 2, "a": 1], "{\n  \"a\": 1,\n  \"b\": 2\n}", .map(["a": .integer(1), "b": .integer(2)]))
        try assertRow([Any](), "[]", .array([]))
        try assertRow([String: Any](), "{}", .map([:]))
    }

    func testKeysAreWrittenInUTF8ByteOrder() throws {
        // Swift's `<` puts "f" first (it compares "e\u{301}" as "é"); the bytes 65 CC 81 come before 66.
        try ref.set(["f": 1, "e\u{301}": 2, "E": 3, "\u{E9}x": 4])
        XCTAssertEqual(store.readFile("disk/doc.json"), "{\n  \"E\": 3,\n  \"e\u{301}\": 2,\n  \"f\": 1,\n  \"\u{E9}x\": 4\n}\n")
    }

    // MARK: Tagged

    func testNaNAndInfinitiesAreTaggedDoubles() throws {
        try ref.set(["v": Double.nan])
        XCTAssertEqual(store.readFile("disk/doc.json"), "{\n  \"v\": {\n    \"$double\": \"NaN\"\n  }\n}\n")
        guard case .double(let nan)? = try storedFields("disk/doc")["v"] else { return XCTFail("NaN did not read back as a double") }
        XCTAssertTrue(nan.isNaN)
        try assertRow(Double.infinity, "{\n  \"$double\": \"Infinity\"\n}", .double(.infinity))
        try assertRow(-Double.infinity, "{\n  \"$double\": \"-Infinity\"\n}", .double(-.infinity))
        try assertRow(Float.infinity, "{\n  \"$double\": \"Infinity\"\n}", .double(.infinity))
    }

    func testTimestamps() throws {
        let at = Timestamp(seconds: 1_795_420_800, nanoseconds: 123_456_000)
        try assertRow(at, "{\n  \"$timestamp\": \"2026-11-23T08:00:00.123456Z\"\n}", .timestamp(at))
        try assertRow(Timestamp(seconds: 0, nanoseconds: 0), "{\n  \"$timestamp\": \"1970-01-01T00:00:00Z\"\n}",
                      .timestamp(Timestamp(seconds: 0, nanoseconds: 0)))
        try assertRow(Timestamp(seconds: 0, nanoseconds: 500_000_000), "{\n  \"$timestamp\": \"1970-01-01T00:00:00.500Z\"\n}",
                      .timestamp(Timestamp(seconds: 0, nanoseconds: 500_000_000)))
    }

    func testTimestampTextsArePaddedAndTheirFractionsCutToGroupsOfThree() {
        let texts = [(-62_135_596_800, 0, "0001-01-01T00:00:00Z"), (253_402_300_799, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
                     (1, 1_000, "1970-01-01T00:00:01.000001Z"), (951_782_400, 120_000_000, "2000-02-29T00:00:00.120Z"),
                     (-1, 5, "1969-12-31T23:59:59.000000005Z")]
        for (seconds, nanoseconds, text) in texts {
            let timestamp = Timestamp(seconds: Int64(seconds), nanoseconds: Int32(nanoseconds))
            XCTAssertEqual(timestamp.rfc3339, text)
            XCTAssertEqual(Timestamp(rfc3339: text), timestamp, text)
        }
    }

    func testBytesStayBytes() throws {
        try assertRow(Data([0, 1, 2, 0xFF]), "{\n  \"$bytes\": \"AAEC/w==\"\n}", .bytes(Data([0, 1, 2, 0xFF])))
        try assertRow(Data(), "{\n  \"$bytes\": \"\"\n}", .bytes(Data()))
        XCTAssertEqual(try awaitData()?["v"] as? Data, Data())
    }

    func testAReferenceStaysAReference() throws {
        let book = db.document("books/hitchhiker")
        try assertRow(book, "{\n  \"$ref\": \"books/hitchhiker\"\n}", .reference(book))
        XCTAssertEqual(try awaitData()?["v"] as? DocumentReference, book)
        let review = db.document("books/hitchhiker/reviews/r1")
        try assertRow(review, "{\n  \"$ref\": \"books/hitchhiker/reviews/r1\"\n}", .reference(review))
    }

    func testGeoPoints() throws {
        let point = GeoPoint(latitude: 51.5, longitude: -0.12)
        try assertRow(point, "{\n  \"$geopoint\": {\n    \"latitude\": 51.5,\n    \"longitude\": -0.12\n  }\n}", .geoPoint(point))
        let whole = GeoPoint(latitude: 0, longitude: 180)
        try assertRow(whole, "{\n  \"$geopoint\": {\n    \"latitude\": 0.0,\n    \"longitude\": 180.0\n  }\n}", .geoPoint(whole))
    }

    func testAMapOfLatitudeAndLongitudeStaysAMap() throws {
        try assertRow(["latitude": 1.5, "longitude": 2.5], "{\n  \"latitude\": 1.5,\n  \"longitude\": 2.5\n}",
                      .map(["latitude": .double(1.5), "longitude": .double(2.5)]))
    }

    // MARK: The $map escape

    func testAMapWhoseOnlyKeyStartsWithADollarIsEscaped() throws {
        try assertRow(["$ref": "books/x"], "{\n  \"$map\": {\n    \"$ref\": \"books/x\"\n  }\n}", .map(["$ref": .string("books/x")]))
        try assertRow(["$other": 1], "{\n  \"$map\": {\n    \"$other\": 1\n  }\n}", .map(["$other": .integer(1)]))
        try assertRow(["$map": ["$map": 1]], "{\n  \"$map\": {\n    \"$map\": {\n      \"$map\": {\n        \"$map\": 1\n      }\n    }\n  }\n}",
                      .map(["$map": .map(["$map": .integer(1)])]))
    }

    func testAMapWithADollarKeyAndOthersIsPlain() throws {
        try assertRow(["$ref": "books/x", "note": 1], "{\n  \"$ref\": \"books/x\",\n  \"note\": 1\n}",
                      .map(["$ref": .string("books/x"), "note": .integer(1)]))
    }

    func testAnUnknownTagWrittenByHandIsAMap() throws {
        try store.writeFile("disk/doc.json", #"{"v": {"$unknown": 1}}"#)
        XCTAssertEqual(try storedFields("disk/doc")["v"], .map(["$unknown": .integer(1)]))
    }

    // MARK: Malformed tags

    private func readError(of json: String) async throws -> FirestoreErrorCode? {
        try store.writeFile("disk/doc.json", json)
        let snapshot = try await ref.getDocument()
        XCTAssertTrue(snapshot.exists)
        XCTAssertNil(snapshot.data())
        return snapshot.readError
    }

    func testAReferenceThatIsNotAStringMakesTheDocumentUnreadable() async throws {
        let error = try await readError(of: #"{"author": {"$ref": 5}}"#)
        XCTAssertEqual(error?.code, FirestoreErrorCode.dataLoss.rawValue)
        XCTAssertEqual(error?.description, #"document disk/doc cannot be read: field author: {"$ref": …} expects a document path in a string, such as "books/hitchhiker", found the number 5"#)
    }

    func testATimestampThatIsNotRFC3339MakesTheDocumentUnreadable() async throws {
        let error = try await readError(of: #"{"due": {"$timestamp": "soon"}}"#)
        XCTAssertEqual(error?.description, #"document disk/doc cannot be read: field due: {"$timestamp": …} expects an RFC 3339 time in a string, such as "2014-09-09T12:30:00Z", from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, found the string "soon""#)
    }

    func testMalformedTagsDeepInsideNameTheirField() async throws {
        let bytes = try await readError(of: #"{"m": {"list": [1, {"$bytes": "not base64!"}]}}"#)
        XCTAssertEqual(bytes?.description, #"document disk/doc cannot be read: field m.list[1]: {"$bytes": …} expects base64 text in a string, such as "AAEC", found the string "not base64!""#)
        let point = try await readError(of: #"{"p": {"$geopoint": {"latitude": 100, "longitude": 0}}}"#)
        XCTAssertEqual(point?.description, #"document disk/doc cannot be read: field p: {"$geopoint": …} expects a map {"latitude": -90...90, "longitude": -180...180}, found a map (latitude 100.0 is outside -90...90)"#)
        let double = try await readError(of: #"{"x": {"$double": "nan"}}"#)
        XCTAssertEqual(double?.description, #"document disk/doc cannot be read: field x: {"$double": …} expects "NaN", "Infinity", "-Infinity" or a number, found the string "nan""#)
        let map = try await readError(of: #"{"x": {"$map": [1]}}"#)
        XCTAssertEqual(map?.description, #"document disk/doc cannot be read: field x: {"$map": …} expects a map, found an array of 1 item"#)
        let late = try await readError(of: #"{"x": {"$timestamp": "10000-01-01T00:00:00Z"}}"#)
        XCTAssertEqual(late?.code, FirestoreErrorCode.dataLoss.rawValue)
        let collection = try await readError(of: #"{"x": {"$ref": "books"}}"#)
        XCTAssertTrue(collection?.description.hasPrefix(#"document disk/doc cannot be read: field x: {"$ref": …} expects a document path in a string, such as "books/hitchhiker", found the string "books" ("#) == true,
                      "\(String(describing: collection))")
    }

    func testTwoFieldNamesThatDifferOnlyInNormalizationAreNamedClearly() async throws {
        let error = try await readError(of: "{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}")
        XCTAssertEqual(error?.code, FirestoreErrorCode.dataLoss.rawValue)
        XCTAssertTrue(error?.description.hasSuffix("the fields \"caf\u{E9}\" (U+0063 U+0061 U+0066 U+00E9) and \"cafe\u{301}\" "
            + "(U+0063 U+0061 U+0066 U+0065 U+0301) differ only in Unicode normalization, and the store cannot hold both in one map; "
            + "rename one of them") == true, "\(String(describing: error))")
        let twice = try await readError(of: #"{"a": 1, "a": 2}"#)
        XCTAssertTrue(twice?.description.hasSuffix(#"the field "a" appears twice"#) == true, "\(String(describing: twice))")
    }

    func testAnUnreadableDocumentIsNeitherMergedIntoNorUpdated() throws {
        try store.writeFile("disk/doc.json", #"{"author": {"$ref": 5}}"#)
        XCTAssertEqual(storeError { try ref.update(["x": 1]) }?.code, FirestoreErrorCode.dataLoss.rawValue)
        XCTAssertEqual(storeError { try ref.set(["x": 1], merge: true) }?.code, FirestoreErrorCode.dataLoss.rawValue)
        XCTAssertEqual(store.readFile("disk/doc.json"), #"{"author": {"$ref": 5}}"#, "the file is left as it was")
    }

    // MARK: Plain JSON written before typed values

    struct Language: Codable, Equatable {
        var language_name: String
        var year: Date
    }

    struct Office: Codable, Equatable {
        var name: String
        var location: GeoPoint
    }

    private func copyDemoFile(_ relative: String) throws {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        try store.writeFile(relative, bytes: Array(try Data(contentsOf: root.appendingPathComponent("Data/" + relative))))
    }

    func testTheDemoDataStillDecodesToDateAndGeoPoint() async throws {
        try copyDemoFile("programming-languages/kotlin.json")
        try copyDemoFile("locations/googleHAM.json")
        let kotlin = try await db.document("programming-languages/kotlin").getDocument(as: Language.self)
        XCTAssertEqual(kotlin, Language(language_name: "Kotlin", year: Date(timeIntervalSince1970: 1_455_494_400)))
        let hamburg = try await db.document("locations/googleHAM").getDocument(as: Office.self)
        XCTAssertEqual(hamburg, Office(name: "Google Hamburg", location: GeoPoint(latitude: 53.553986, longitude: 9.9856482)))
        // Read without a model, they are what the JSON says: a string and a map.
        let raw = try await db.document("programming-languages/kotlin").getDocument()
        XCTAssertEqual(raw.get("year") as? String, "2016-02-15T00:00:00Z")
        let place = try await db.document("locations/googleHAM").getDocument()
        XCTAssertEqual((place.get("location") as? [String: Any])?["latitude"] as? Double, 53.553986)
    }

    func testEveryDemoFileIsReadable() throws {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) { root.deleteLastPathComponent() }
        let demo = root.appendingPathComponent("Data")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: demo.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(files.count, 20)
        var scratch = DocumentParser.Scratch()
        for file in files {
            let bytes = try Array(Data(contentsOf: demo.appendingPathComponent(file)))
            let stored = StoredDocument.parse(bytes[...], store: db, scratch: &scratch)
            XCTAssertNotNil(stored.fields, "\(file): \(stored)")
        }
    }

    func testADemoDocumentSavedBackWithItsModelIsTypedAndStillDecodes() async throws {
        try copyDemoFile("programming-languages/kotlin.json")
        let ref = db.document("programming-languages/kotlin")
        let kotlin = try await ref.getDocument(as: Language.self)
        try ref.write(kotlin)
        XCTAssertEqual(store.readFile("programming-languages/kotlin.json"), """
            {
              "language_name": "Kotlin",
              "year": {
                "$timestamp": "2016-02-15T00:00:00Z"
              }
            }

            """)
        let again = try await ref.getDocument(as: Language.self)
        XCTAssertEqual(again, kotlin)
    }

    func testAnIntegerLiteralBeyond64BitsReadsAsADouble() throws {
        try store.writeFile("disk/doc.json", #"{"big": 18446744073709551616, "exp": 1E2, "neg": -0}"#)
        XCTAssertEqual(try storedFields("disk/doc"), ["big": .double(18_446_744_073_709_551_616), "exp": .double(100), "neg": .integer(0)])
    }

    private func awaitData() throws -> [String: Any]? {
        let stored = try db.files.document(at: ref.resourcePath, store: db)
        return DocumentSnapshot(reference: ref, stored: stored).data()
    }

    /// `storedJSON` is the document in the files' typed form, whatever the backend: on a folder,
    /// exactly the file the store wrote.
    func testStoredJSONIsWhatTheStoreWrites() throws {
        try db.document("typed/a").write(["n": 1, "d": 1.5, "t": Timestamp(seconds: 0, nanoseconds: 1000), "b": Data([1, 2])])
        let snapshot = try db.document("typed/a").readSnapshot()
        XCTAssertEqual(snapshot.storedJSON, store.readFile("typed/a.json"))
        XCTAssertTrue(snapshot.storedJSON?.contains(#""$timestamp""#) == true)
        XCTAssertNil(try db.document("typed/none").readSnapshot().storedJSON)
        try store.writeFile("typed/broken.json", "{")
        XCTAssertNil(try db.document("typed/broken").readSnapshot().storedJSON, "nothing stored to show: the file is what there is")
    }
}

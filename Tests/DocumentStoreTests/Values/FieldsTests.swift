@testable import DocumentStore
import Foundation
import XCTest

/// `Fields`: a map's values beside the names of its shape, which the documents read from one
/// folder share. Names are kept by their bytes and found as the dictionary before them found them.
final class FieldsTests: StoreTestCase {
    private func bytes(_ texts: [String?]) -> [[UInt8]?] { texts.map { $0.map { Array($0.utf8) } } }

    func testDocumentsWithTheSameNamesShareOneShape() async throws {
        for i in 0..<3 { try store.writeFile("books/b\(i).json", #"{"author": "A", "pages": \#(i)}"#) }
        try store.writeFile("books/c.json", #"{"author": "B", "title": "T"}"#)
        let documents = try await db.collection("books").getDocuments().documents
        let shapes = documents.map { $0.stored.fields!.shape }
        XCTAssertTrue(shapes[0] === shapes[1] && shapes[1] === shapes[2])
        XCTAssertFalse(shapes[2] === shapes[3])
        XCTAssertEqual(documents.map { $0.data()["pages"] as? Int }, [0, 1, 2, nil])
        XCTAssertEqual(documents.map { $0.data()["title"] as? String }, [nil, nil, nil, "T"])
    }

    func testNamesThatDifferOnlyInNormalizationAreTwoShapes() async throws {
        try store.writeFile("names/a.json", "{\"caf\u{E9}\": 1}")
        try store.writeFile("names/b.json", "{\"cafe\u{301}\": 2}")
        let documents = try await db.collection("names").getDocuments().documents
        XCTAssertEqual(bytes(documents.map { $0.stored.fields!.names.first }), bytes(["caf\u{E9}", "cafe\u{301}"]))
        XCTAssertEqual(bytes(documents.map(\.storedJSON)), bytes(["{\n  \"caf\u{E9}\": 1\n}\n", "{\n  \"cafe\u{301}\": 2\n}\n"]))
        try await db.collection("names").document("b").setData(["n": 3], merge: true)
        XCTAssertEqual(bytes([store.readFile("names/b.json")]), bytes(["{\n  \"cafe\u{301}\": 2,\n  \"n\": 3\n}\n"]),
                       "a merge keeps the name's bytes")
    }

    func testNamesAreSortedByTheirBytesWhateverTheFileOrder() throws {
        try store.writeFile("disk/doc.json", #"{"b": 1, "a": {"y": true, "x": null}, "B": 2}"#)
        let fields = try storedFields("disk/doc")
        XCTAssertEqual(fields.names, ["B", "a", "b"])
        XCTAssertEqual(fields["a"], .map(["x": .null, "y": .boolean(true)]))
        XCTAssertEqual(fields.value(at: ["a", "y"]), .boolean(true))
        XCTAssertNil(fields.value(at: ["b", "y"]))
        try store.writeFile("disk/doc.json", #"{"q\"uote": 1, "caf\u00e9": 2, "\u0041": 3}"#)
        let escaped = try storedFields("disk/doc")
        XCTAssertEqual(bytes(escaped.names), bytes(["A", "caf\u{E9}", "q\"uote"]), "escaped names, read by the careful path")
        XCTAssertEqual(escaped.map(\.value), [.integer(3), .integer(2), .integer(1)])
    }

    func testANameIsFoundAsADictionaryFoundIt() {
        let fields: Fields = ["caf\u{E9}": .integer(1), "\u{212A}": .integer(2), "a": .integer(3)]
        XCTAssertEqual(bytes(fields.names), bytes(["a", "caf\u{E9}", "\u{212A}"]), "sorted by bytes: 61, 63, E2")
        XCTAssertEqual(fields["a"], .integer(3))
        XCTAssertEqual(fields["cafe\u{301}"], .integer(1), "Swift's String == finds the other normalization")
        XCTAssertEqual(fields["K"], .integer(2), "U+212A KELVIN SIGN is canonically K")
        XCTAssertNil(fields["b"])
        let ascii: Fields = ["K": .integer(1)]
        XCTAssertEqual(ascii["\u{212A}"], .integer(1))
        XCTAssertNil(ascii["k"])
    }

    func testNamesThatSwiftFindsEqualAreStillRefusedWhereverTheyStand() async throws {
        let apart = try await readError(of: "{\"caf\u{E9}\": 1, \"x\": 0, \"cafe\u{301}\": 2}")
        XCTAssertTrue(apart?.description.contains("differ only in Unicode normalization") == true, "\(String(describing: apart))")
        let kelvin = try await readError(of: "{\"K\": 1, \"\u{212A}\": 2}")
        XCTAssertTrue(kelvin?.description.contains("differ only in Unicode normalization") == true, "\(String(describing: kelvin))")
        let twice = try await readError(of: #"{"b": 1, "a": 2, "b": 3}"#)
        XCTAssertTrue(twice?.description.hasSuffix(#"the field "b" appears twice"#) == true, "\(String(describing: twice))")
    }

    private func readError(of text: String) async throws -> FirestoreErrorCode? {
        try store.writeFile("disk/doc.json", text)
        return try await db.collection("disk").document("doc").getDocument().readError
    }
}

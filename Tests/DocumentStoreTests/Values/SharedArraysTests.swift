@testable import DocumentStore
import Foundation
import XCTest

/// Documents that hold the same small array of plain values share one copy of it, and sharing
/// never makes two different values one.
final class SharedArraysTests: StoreTestCase {
    private var scratch = DocumentParser.Scratch()

    private func field(_ json: String, _ name: String = "tags") throws -> [FirestoreValue] {
        let bytes = Array(json.utf8)
        let fields = try XCTUnwrap(bytes.withUnsafeBufferPointer { DocumentParser.fields($0, store: db, scratch: &scratch) })
        return try XCTUnwrap(fields[name]?.arrayValue)
    }

    private func storage(_ items: [FirestoreValue]) -> UnsafeRawPointer? {
        items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    func testTwoDocumentsWithTheSameArrayShareItsStorage() throws {
        let first = try field(#"{"tags": ["Sci-Fi", "Fantasy"], "title": "A"}"#)
        let second = try field(#"{"tags": ["Sci-Fi", "Fantasy"], "title": "B"}"#)
        XCTAssertEqual(first, [.string("Sci-Fi"), .string("Fantasy")])
        XCTAssertEqual(storage(first), storage(second))
    }

    func testArraysMetInTurnAreAllKept() throws {
        let texts = (0..<100).map { #"{"tags": ["genre \#($0 % 8)", \#($0 % 8)]}"# }
        let arrays = try texts.map { try field($0) }
        XCTAssertEqual(Set(arrays.map(storage)).count, 8, "the eight arrays, each read once")
    }

    /// The same text always parses to the same values, but an array is matched by its values,
    /// so one met under the same hash is never taken for another.
    func testValuesFirestoreTellsApartAreNeverShared() {
        var arrays = SharedArrays()
        let text = Array("[1]".utf8)
        text.withUnsafeBufferPointer { text in
            for items: [FirestoreValue] in [[.integer(1)], [.double(1)], [.double(0)], [.double(-0.0)], [.string("café")],
                                            [.string("cafe\u{301}")], [.integer(1)]] {
                XCTAssertEqual(arrays.shared(items[...], text: text), items)
            }
        }
        XCTAssertEqual(try field(#"{"tags": [-0.0]}"#), [.double(-0.0)])
        XCTAssertNotEqual(try field(#"{"tags": [0.0]}"#), [.double(-0.0)])
    }

    func testArraysHoldingMapsOrArraysAreEachTheirOwn() throws {
        let first = try field(#"{"tags": [{"a": 1}]}"#)
        let second = try field(#"{"tags": [{"a": 1}]}"#)
        XCTAssertEqual(first, second)
        XCTAssertNotEqual(storage(first), storage(second))
    }

    func testTheSameArraysReadFromFilesShareAcrossDocuments() async throws {
        for index in 0..<600 {
            try await db.collection("books").document("b\(index)").setData(["genres": ["Sci-Fi", "Fantasy"], "n": index])
        }
        let documents = try await db.collection("books").getDocuments().documents
        let storages = Set(documents.compactMap { document in
            document.stored.fields?["genres"]?.arrayValue.map { storage($0) }
        })
        XCTAssertEqual(documents.count, 600)
        XCTAssertLessThanOrEqual(storages.count, ProcessInfo.processInfo.activeProcessorCount, "one copy a reader thread")
    }
}

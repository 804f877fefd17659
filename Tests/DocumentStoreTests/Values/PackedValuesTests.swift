@testable import DocumentStore
import Foundation
import XCTest

/// `PackedValues`: a map's values in one block, each read back as the value it was made of.
final class PackedValuesTests: StoreTestCase {
    private func everyKind() -> [FirestoreValue] {
        [.null, .boolean(true), .boolean(false), .integer(0), .integer(.min), .integer(.max), .double(-0.0), .double(.nan),
         .double(.infinity), .double(1.5e-300), .timestamp(Timestamp(seconds: -62_135_596_800, nanoseconds: 999_999_000)),
         .string(""), .string("a"), .string("The Silent River 123456"), .string("nul\u{0}inside"), .string("caf\u{E9} cafe\u{301} 🦀"),
         .string(String(repeating: "long ", count: 300)), .bytes(Data([0, 255, 1])), .bytes(Data()),
         .reference(db.document("books/b1")), .geoPoint(GeoPoint(latitude: 51.5, longitude: -0.12)),
         .array([.string("Sci-Fi"), .integer(2), .array([])]), .map(["nested": .string("a string longer than fifteen")]), .map([:])]
    }

    func testEveryKindOfValueIsReadBackAsItWasMade() {
        let values = everyKind()
        let packed = PackedValues.make(values)
        XCTAssertEqual(packed.count, values.count)
        for (index, value) in values.enumerated() {
            XCTAssertEqual(packed[index], value, "value \(index)")
            XCTAssertEqual(packed[index].described, value.described, "value \(index)")
        }
        XCTAssertEqual(PackedValues.make([]).count, 0)
    }

    func testAStringsBytesComeBackExactly() {
        for text in ["caf\u{E9}", "cafe\u{301}", "\u{212A}", "nul\u{0}", "\r\n", String(repeating: "é", count: 17)] {
            guard case .string(let read) = PackedValues.make([.string(text)])[0] else { return XCTFail("\(text) is not read as a string") }
            XCTAssertEqual(Array(read.utf8), Array(text.utf8))
        }
    }

    func testTheObjectsAValueHoldsAreLetGoWithItsBlock() {
        weak var held: DocumentReference?
        var packed: PackedValues?
        do {
            let reference = db.document("books/b1")
            packed = PackedValues.make([.string("kept"), .array([.reference(reference)]), .reference(reference), .integer(1)])
            held = reference
        }
        XCTAssertNotNil(held, "the block holds the reference")
        XCTAssertEqual(packed?[3], .integer(1))
        packed = nil
        XCTAssertNil(held, "and lets it go with itself")
    }

    /// A book's four values in one request of 128 bytes (a block of 136 usable): as an array of
    /// values (128) and a title string of its own (64) they took glibc blocks of 144 and 80.
    func testABooksValuesFitOneBlockOfAHundredAndTwentyEightBytes() throws {
        try store.writeFile("books/generated-0000001.json",
                            #"{"author": "Ada Lindqvist", "genres": ["Sci-Fi", "Fantasy"], "numberOfPages": 80, "title": "The Silent River 123456"}"#)
        let fields = try storedFields("books/generated-0000001")
        XCTAssertEqual(fields["title"], .string("The Silent River 123456"))
        // glibc may serve a request from a free block a little larger: the smallest of several is the request's.
        let blocks = (0..<16).map { _ in PackedValues.make(fields.map(\.value)) }
        XCTAssertLessThanOrEqual(blocks.map { mallocUsableSize(of: $0) }.min()!, 136)
        // The title is its bytes in the block, not a string of its own: each read makes one.
        guard case .string(var first)? = fields["title"], case .string(var second)? = fields["title"] else { return XCTFail("no title") }
        XCTAssertNotEqual(first.withUTF8 { $0.baseAddress }, second.withUTF8 { $0.baseAddress })
    }
}

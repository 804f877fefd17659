@testable import DocumentStore
import Foundation
import XCTest

/// Firestore's equality and total order of values (Values/ValueOrder.swift,
/// Values/FirestoreValue.swift), checked on the values themselves.
final class ValueOrderTests: StoreTestCase {
    private func assertAscending(_ values: [FirestoreValue], file: StaticString = #filePath, line: UInt = #line) {
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() {
                let expected = i == j ? 0 : (i < j ? -1 : 1)
                XCTAssertEqual(ValueOrder.compare(a, b), expected, "\(a.described) vs \(b.described)", file: file, line: line)
            }
        }
    }

    func testTypesOrderAsFirestoreOrdersThem() {
        assertAscending([
            .null, .boolean(false), .integer(0), .timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .string(""),
            .bytes(Data()), .reference(db.document("a/b")), .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
            .array([]), .map([:]),
        ])
    }

    func testNumbersOrderByValueAcrossIntegersAndDoublesWithNaNFirst() {
        assertAscending([
            .double(.nan), .double(-.infinity), .integer(.min), .double(-1.5), .integer(-1), .double(-0.5), .integer(0),
            .double(0.5), .integer(1), .double(9_007_199_254_740_992), .integer(9_007_199_254_740_993), .integer(.max),
            .double(0x1p63), .double(.infinity),
        ])
    }

    func testNumbersThatAreEqualInValueCompareSameButAreNotEqual() {
        XCTAssertEqual(ValueOrder.compare(.integer(1), .double(1)), 0)
        XCTAssertNotEqual(FirestoreValue.integer(1), .double(1), "1 is not 1.0")
        XCTAssertEqual(ValueOrder.compare(.double(0), .double(-0.0)), 0)
        XCTAssertNotEqual(FirestoreValue.double(0), .double(-0.0))
        XCTAssertEqual(ValueOrder.compare(.double(.nan), .double(.nan)), 0)
        XCTAssertEqual(FirestoreValue.double(.nan), .double(.nan), "NaN equals NaN")
        XCTAssertEqual(ValueOrder.compare(.integer(-0), .double(-0.0)), 0)
    }

    func testStringsOrderAndCompareByTheirUTF8Bytes() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        XCTAssertTrue(precomposed == decomposed, "Swift says they are equal")
        XCTAssertNotEqual(FirestoreValue.string(precomposed), .string(decomposed), "Firestore says they are not")
        // "e" + U+0301 is 65 CC 81; U+00E9 is C3 A9; U+FFFD is EF BF BD; U+1F600 is F0 9F 98 80.
        assertAscending([.string(""), .string("Z"), .string("a"), .string(decomposed), .string(precomposed),
                         .string("\u{FFFD}"), .string("\u{1F600}")])
    }

    func testBytesOrderUnsignedAndShorterFirst() {
        assertAscending([.bytes(Data()), .bytes(Data([0])), .bytes(Data([0, 0])), .bytes(Data([1])), .bytes(Data([0x7F])), .bytes(Data([0x80]))])
    }

    func testTimestampsOrderBySecondsThenNanoseconds() {
        assertAscending([.timestamp(Timestamp(seconds: -1, nanoseconds: 999_999_999)), .timestamp(Timestamp(seconds: 0, nanoseconds: 0)),
                         .timestamp(Timestamp(seconds: 0, nanoseconds: 1)), .timestamp(Timestamp(seconds: 1, nanoseconds: 0))])
    }

    func testReferencesOrderSegmentBySegment() {
        assertAscending([.reference(db.document("a/b")), .reference(db.document("a/b/c/d")), .reference(db.document("a/c")),
                         .reference(db.document("a-/a")), .reference(db.document("b/a"))])
        XCTAssertNotEqual(FirestoreValue.reference(db.document("a/caf\u{E9}")), .reference(db.document("a/cafe\u{301}")))
    }

    func testGeoPointsOrderByLatitudeThenLongitude() {
        assertAscending([.geoPoint(GeoPoint(latitude: -1, longitude: 10)), .geoPoint(GeoPoint(latitude: 0, longitude: -10)),
                         .geoPoint(GeoPoint(latitude: 0, longitude: 10)), .geoPoint(GeoPoint(latitude: 1, longitude: -180))])
    }

    func testArraysOrderElementByElementThenByLength() {
        assertAscending([.array([]), .array([.integer(1)]), .array([.integer(1), .null]), .array([.integer(2)]), .array([.string("a")])])
        XCTAssertEqual(FirestoreValue.array([.integer(1), .string("x")]), .array([.integer(1), .string("x")]))
        XCTAssertNotEqual(FirestoreValue.array([.integer(1)]), .array([.double(1)]))
    }

    func testMapsOrderBySortedKeysThenValues() {
        assertAscending([.map([:]), .map(["a": .integer(1)]), .map(["a": .integer(1), "b": .null]), .map(["a": .integer(2)]),
                         .map(["b": .integer(0)])])
        XCTAssertEqual(FirestoreValue.map(["a": .integer(1), "b": .string("x")]), .map(["b": .string("x"), "a": .integer(1)]))
        XCTAssertNotEqual(FirestoreValue.map(["a": .integer(1)]), .map(["a": .integer(1), "b": .null]))
    }

    func testMapsAndDocumentsCompareFieldNamesByBytes() {
        let precomposed: Fields = ["caf\u{E9}": .integer(1)]
        let decomposed: Fields = ["cafe\u{301}": .integer(1)]
        XCTAssertNotEqual(FirestoreValue.map(precomposed), .map(decomposed))
        XCTAssertEqual(FirestoreValue.map(precomposed), .map(["caf\u{E9}": .integer(1)]))
        XCTAssertNotEqual(StoredDocument.fields(precomposed), .fields(decomposed), "an edit that only renormalizes a name is a change")
        XCTAssertEqual(StoredDocument.fields(precomposed), .fields(precomposed))
        XCTAssertNotEqual(StoredDocument.missing, .fields([:]))
    }

    func testAMissingValueSortsFirst() {
        XCTAssertEqual(ValueOrder.compare(nil, .null), -1)
        XCTAssertEqual(ValueOrder.compare(.null, nil), 1)
        XCTAssertEqual(ValueOrder.compare(nil as FirestoreValue?, nil), 0)
    }

    func testQueriesFilterWithFirestoresEquality() async throws {
        try db.document("n/int").set(["v": 1])
        try db.document("n/double").set(["v": 1.0])
        try db.document("n/text").set(["v": "1"])
        let ints = try await db.collection("n").whereField("v", isEqualTo: 1).getDocuments()
        // Firestore's == filter matches numbers by value: 1 and 1.0 both match, "1" does not.
        XCTAssertEqual(Set(ints.documents.map(\.documentID)), ["int", "double"])
    }
}

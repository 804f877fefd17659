@testable import DocumentStore
import Foundation
import XCTest

/// `data()` and `get()` give what the Firebase SDK gives: numbers and booleans as `NSNumber`
/// (so `as? Double`, `as? Int64`, `as? Float`, `as? Bool` work as on Apple platforms), and
/// `Timestamp`, `GeoPoint`, `Data`, `DocumentReference` as themselves.
final class DataTypesTests: StoreTestCase {
    private var ref: DocumentReference { db.collection("types").document("one") }

    private func snapshot(of data: [String: Any]) async throws -> DocumentSnapshot {
        try ref.write(data)
        return try await ref.getDocument()
    }

    func testAStoredIntegerIsAnNSNumberThatCastsToEveryNumberType() async throws {
        let document = try await snapshot(of: ["avgRating": 4])
        let value = document.data()?["avgRating"]
        XCTAssertTrue(value is NSNumber, "\(type(of: value))")
        XCTAssertEqual(value as? Float, 4)
        XCTAssertEqual(value as? Double, 4)
        XCTAssertEqual(value as? Int64, 4)
        XCTAssertEqual(value as? Int, 4)
        XCTAssertEqual(document.get("avgRating") as? Float, 4)
        XCTAssertEqual(document["avgRating"] as? Double, 4)
    }

    func testAStoredDoubleIsAnNSNumberAndNotAnExactInteger() async throws {
        let document = try await snapshot(of: ["ratio": 4.5])
        XCTAssertTrue(document.get("ratio") is NSNumber)
        XCTAssertEqual(document.get("ratio") as? Double, 4.5)
        XCTAssertEqual(document.get("ratio") as? Float, 4.5)
        XCTAssertNil(document.get("ratio") as? Int64, "4.5 is not an integer")
    }

    func testABooleanIsAnNSNumberThatCastsToBool() async throws {
        let document = try await snapshot(of: ["yes": true, "no": false])
        XCTAssertTrue(document.get("yes") is NSNumber)
        XCTAssertEqual(document.get("yes") as? Bool, true)
        XCTAssertEqual(document.get("no") as? Bool, false)
    }

    func testTheLargestIntegerKeepsAllItsBitsThroughInt64() async throws {
        let document = try await snapshot(of: ["big": Int64.max, "small": Int64.min])
        XCTAssertEqual(document.get("big") as? Int64, .max)
        XCTAssertEqual(document.get("small") as? Int64, .min)
    }

    func testTimestampGeoPointDataAndReferenceComeBackAsThemselves() async throws {
        let at = Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000)
        let point = GeoPoint(latitude: 53.55, longitude: 9.99)
        let blob = Data([0, 1, 2, 0xFF])
        let other = db.document("books/hitchhiker")
        let document = try await snapshot(of: ["at": at, "where": point, "blob": blob, "book": other])
        XCTAssertEqual(document.get("at") as? Timestamp, at)
        XCTAssertEqual(document.get("where") as? GeoPoint, point)
        XCTAssertEqual(document.get("blob") as? Data, blob)
        XCTAssertEqual(document.get("book") as? DocumentReference, other)
        XCTAssertEqual((document.get("book") as? DocumentReference)?.path, "books/hitchhiker")
    }

    func testADateIsStoredAsATimestamp() async throws {
        let date = Date(timeIntervalSince1970: 1_410_265_800.5)
        let document = try await snapshot(of: ["at": date])
        XCTAssertEqual(document.get("at") as? Timestamp, Timestamp(seconds: 1_410_265_800, nanoseconds: 500_000_000))
        XCTAssertEqual((document.get("at") as? Timestamp)?.dateValue(), date)
    }

    func testNestedValuesAreTypedToo() async throws {
        let document = try await snapshot(of: ["cover": ["pages": 42, "at": Timestamp(seconds: 0, nanoseconds: 0)],
                                               "list": [1, "two", 3.5, NSNull()]])
        let cover = try XCTUnwrap(document.get("cover") as? [String: Any])
        XCTAssertEqual(cover["pages"] as? Float, 42)
        XCTAssertEqual(cover["at"] as? Timestamp, Timestamp(seconds: 0, nanoseconds: 0))
        XCTAssertEqual(document.get("cover.pages") as? Int64, 42)
        let list = try XCTUnwrap(document.get("list") as? [Any])
        XCTAssertEqual(list.count, 4)
        XCTAssertEqual(list[0] as? Int64, 1)
        XCTAssertEqual(list[1] as? String, "two")
        XCTAssertEqual(list[2] as? Double, 3.5)
        XCTAssertTrue(list[3] is NSNull)
    }

    /// What `data()` gives, written back, is stored with the same types: an NSNumber integer stays
    /// an integer, a double a double, a boolean a boolean.
    func testDataWrittenBackKeepsEveryType() async throws {
        let original: [String: Any] = ["int": 4, "double": 4.0, "bool": true, "big": Int64.max, "text": "4",
                                       "at": Timestamp(seconds: 5, nanoseconds: 6000), "blob": Data([1]),
                                       "where": GeoPoint(latitude: 1, longitude: 2), "ref": db.document("a/b"),
                                       "nested": ["flag": false, "n": -1]]
        try ref.write(original)
        let before = try storedFields("types/one")
        let copy = db.document("types/copy")
        try copy.write(try await ref.getDocument().data() ?? [:])
        XCTAssertEqual(try storedFields("types/copy"), before)
        XCTAssertEqual(before["int"], .integer(4))
        XCTAssertEqual(before["double"], .double(4))
        XCTAssertEqual(before["bool"], .boolean(true))
        XCTAssertEqual(try storedFields("types/copy")["nested"], .map(["flag": .boolean(false), "n": .integer(-1)]))
    }

    func testEveryNSNumberKindIsStoredWithItsType() throws {
        try ref.set(["i": NSNumber(value: Int8(1)), "u": NSNumber(value: UInt8(200)), "f": NSNumber(value: Float(1.5)),
                       "d": NSNumber(value: 2.5), "t": NSNumber(value: true), "q": NSNumber(value: Int64.min)])
        XCTAssertEqual(try storedFields("types/one"), ["i": .integer(1), "u": .integer(200), "f": .double(1.5),
                                                       "d": .double(2.5), "t": .boolean(true), "q": .integer(.min)])
    }

    func testAnUnsignedIntegerBeyond64BitsIsRefusedByName() {
        let error = storeError { try ref.set(["n": UInt64.max]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description, "document types/one, field n: 18446744073709551615 is out of range for a 64-bit integer "
            + "(-9223372036854775808...9223372036854775807), the only integer Firestore stores")
    }
}

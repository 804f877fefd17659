@testable import DocumentStore
import Foundation
import XCTest

/// Point 1: every supported type written with `setData(from:)` reads back equal with
/// `getDocument(as:)`; integers that do not fit their type are an error naming the number.
final class RoundTripTests: StoreTestCase {
    private var ref: DocumentReference { db.collection("roundtrip").document("value") }

    // MARK: Simple values

    struct Simple: Codable, Equatable {
        var text: String
        var empty: String
        var yes: Bool
        var no: Bool
    }

    func testStringsAndBooleans() async throws {
        try await assertRoundTrip(Simple(text: "Café ☕ \"quoted\" \\ back\nnew line\ttab \u{1}", empty: "", yes: true, no: false),
                                  through: ref)
    }

    struct Integers: Codable, Equatable {
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64

        static let min = Integers(int: .min, int8: .min, int16: .min, int32: .min, int64: .min,
                                  uint: .min, uint8: .min, uint16: .min, uint32: .min, uint64: .min)
        /// Firestore stores 64-bit signed integers: the unsigned types stop at Int64.max.
        static let max = Integers(int: .max, int8: .max, int16: .max, int32: .max, int64: .max,
                                  uint: UInt(Int64.max), uint8: .max, uint16: .max, uint32: .max, uint64: UInt64(Int64.max))
    }

    func testEveryIntegerTypeAtItsMinimum() async throws {
        try await assertRoundTrip(Integers.min, through: ref)
        XCTAssertEqual(store.readFile("roundtrip/value.json"), """
            {
              "int": -9223372036854775808,
              "int16": -32768,
              "int32": -2147483648,
              "int64": -9223372036854775808,
              "int8": -128,
              "uint": 0,
              "uint16": 0,
              "uint32": 0,
              "uint64": 0,
              "uint8": 0
            }

            """)
    }

    func testEveryIntegerTypeAtItsMaximum() async throws {
        try await assertRoundTrip(Integers.max, through: ref)
        XCTAssertEqual(store.readFile("roundtrip/value.json"), """
            {
              "int": 9223372036854775807,
              "int16": 32767,
              "int32": 2147483647,
              "int64": 9223372036854775807,
              "int8": 127,
              "uint": 9223372036854775807,
              "uint16": 65535,
              "uint32": 4294967295,
              "uint64": 9223372036854775807,
              "uint8": 255
            }

            """)
    }

    /// Changed with the value model: an unsigned integer above Int64.max is refused when
    /// encoding, where it used to be written (and could not be read back as a Firestore value).
    func testAnUnsignedIntegerAboveInt64MaxIsRefused() {
        var tooBig = Integers.max
        tooBig.uint64 = .max
        let error = thrownError { try self.ref.setData(from: tooBig) }
        guard case .invalidValue(_, let context)? = error as? EncodingError else {
            return XCTFail("expected EncodingError.invalidValue, got \(String(describing: error))")
        }
        XCTAssertEqual(context.debugDescription,
                       "document roundtrip/value, field uint64: 18446744073709551615 is out of range for a 64-bit integer, the only integer Firestore stores")
        XCTAssertNil(store.readFile("roundtrip/value.json"))
    }

    struct Floats: Codable, Equatable {
        var float: Float
        var floats: [Float]
        var double: Double
        var doubles: [Double]
    }

    func testFloatsAndDoubles() async throws {
        try await assertRoundTrip(Floats(
            float: 3.14,
            floats: [0, -0.5, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 16_777_216],
            double: 0.1,
            doubles: [0, 816, -1234.5678, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1 + 0.2, 9_007_199_254_740_992, 123_456_789.123_456_78]
        ), through: ref)
    }

    struct Integral: Codable, Equatable { var value: Int8 }
    struct Unsigned: Codable, Equatable { var value: UInt64 }
    struct Whole: Codable, Equatable { var value: Int }

    func testAnIntegerThatDoesNotFitIsAnErrorNamingTheNumber() async throws {
        try store.writeFile("roundtrip/int8.json", #"{"value": 300}"#)
        try store.writeFile("roundtrip/uint64.json", #"{"value": 18446744073709551616}"#)
        try store.writeFile("roundtrip/negative.json", #"{"value": -1}"#)
        try store.writeFile("roundtrip/fraction.json", #"{"value": 2.5}"#)
        try store.writeFile("roundtrip/exponent.json", #"{"value": 1e2}"#)

        var error = await thrownError { _ = try await self.db.document("roundtrip/int8").getDocument(as: Integral.self) }
        XCTAssertEqual(decodingCase(error), "dataCorrupted")
        XCTAssertEqual(contextDescription(error),
                       "document roundtrip/int8, field value: expected Int8, found the number 300, which is out of range for Int8 (-128...127)")

        error = await thrownError { _ = try await self.db.document("roundtrip/uint64").getDocument(as: Unsigned.self) }
        XCTAssertEqual(decodingCase(error), "dataCorrupted")
        XCTAssertEqual(contextDescription(error),
                       "document roundtrip/uint64, field value: expected UInt64, found the number 18446744073709551616, which is out of range for UInt64 (0...18446744073709551615)")

        error = await thrownError { _ = try await self.db.document("roundtrip/negative").getDocument(as: Unsigned.self) }
        XCTAssertEqual(contextDescription(error),
                       "document roundtrip/negative, field value: expected UInt64, found the number -1, which is out of range for UInt64 (0...18446744073709551615)")

        error = await thrownError { _ = try await self.db.document("roundtrip/fraction").getDocument(as: Whole.self) }
        XCTAssertEqual(decodingCase(error), "typeMismatch")
        XCTAssertEqual(contextDescription(error),
                       "document roundtrip/fraction, field value: expected Int, found the number 2.5, which is not a whole number")

        // A whole number written with an exponent is still that number.
        let hundred = try await db.document("roundtrip/exponent").getDocument(as: Whole.self)
        XCTAssertEqual(hundred, Whole(value: 100))
    }

    // MARK: Dates and Firestore's own types

    struct Times: Codable, Equatable {
        var date: Date
        var dates: [Date]
        var timestamp: Timestamp
        var timestamps: [Timestamp]
    }

    /// Dates and timestamps to the microsecond, which is what Firestore keeps. A Date holding a
    /// fraction no double holds exactly (0.000001 s) is truncated, as Firebase's `Timestamp(date:)`
    /// truncates it (FIRTimestamp.m), so the Dates here are exact.
    func testDatesAndTimestampsIncludingSubSecond() async throws {
        try await assertRoundTrip(Times(
            date: Date(timeIntervalSince1970: 1_700_000_000.125),
            dates: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1_000_000_000.5),
                    Date(timeIntervalSince1970: 1_410_220_800.25), Date(timeIntervalSinceReferenceDate: 0.5)],
            timestamp: Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000),
            timestamps: [Timestamp(seconds: 0, nanoseconds: 0), Timestamp(seconds: -1, nanoseconds: 999_999_000),
                         Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_000)]
        ), through: ref)
        let stored = try await ref.getDocument()
        XCTAssertEqual(stored.get("timestamp") as? Timestamp, Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000))
        XCTAssertEqual((stored.get("dates") as? [Timestamp])?.map(\.rfc3339),
                       ["1970-01-01T00:00:00Z", "1938-04-24T22:13:19.500Z", "2014-09-09T00:00:00.250Z", "2001-01-01T00:00:00.500Z"])
        try await ref.setData(["at": Date(timeIntervalSinceReferenceDate: 0.000_001)])
        let truncated = try await ref.getDocument().get("at") as? Timestamp
        XCTAssertEqual(truncated?.rfc3339, "2001-01-01T00:00:00Z", "978307200.000001 is 978307200.00000095… as a double: 999 ns, then microseconds")
        XCTAssertEqual((stored.get("timestamps") as? [Timestamp])?.map(\.rfc3339),
                       ["1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z"])
    }

    /// Changed with the value model: Firestore keeps microseconds and truncates the rest, and so
    /// does the store (it used to keep nanoseconds).
    func testNanosecondsAreTruncatedToMicrosecondsAsFirestoreDoes() async throws {
        try ref.setData(from: Times(date: Date(timeIntervalSince1970: 0), dates: [],
                                    timestamp: Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_789),
                                    timestamps: [Timestamp(seconds: -1, nanoseconds: 999_999_999)]))
        let read = try await ref.getDocument(as: Times.self)
        XCTAssertEqual(read, Times(date: Date(timeIntervalSince1970: 0), dates: [],
                                   timestamp: Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000),
                                   timestamps: [Timestamp(seconds: -1, nanoseconds: 999_999_000)]))
    }

    /// A stored timestamp read as a Date and written back is the same timestamp or a microsecond
    /// earlier, never later, wherever a Date holds microseconds (from about 1700 to 2240): Firebase's
    /// `Timestamp(date:)` truncates what the Date holds.
    func testADateReadAndWrittenBackKeepsItsTimestamp() async throws {
        struct Dated: Codable { var at: Date }
        let instants = [Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000), Timestamp(seconds: 0, nanoseconds: 1_000),
                        Timestamp(seconds: -1, nanoseconds: 999_999_000), Timestamp(seconds: 1_410_220_800, nanoseconds: 999_000),
                        Timestamp(seconds: 4_102_444_799, nanoseconds: 999_999_000), Timestamp(seconds: -7_000_000_000, nanoseconds: 7_000)]
        for instant in instants {
            try await ref.setData(["at": instant])
            try ref.write(try await ref.getDocument(as: Dated.self))
            let again = try await ref.getDocument().get("at")
            assertWithinAMicrosecondBefore(again as? Timestamp, instant)
        }
    }

    /// Where a Date is coarser (30 µs near year 9999), the first write-back moves the time to
    /// what the Date holds, never past 9999-12-31 nor before year 1, and the next keeps it.
    func testACoarseDateSettlesOnWhatItHolds() async throws {
        struct Dated: Codable { var at: Date }
        let expected = [Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999): Timestamp(seconds: 253_402_300_799, nanoseconds: 999_969_000),
                        Timestamp(seconds: -62_135_596_800, nanoseconds: 1_000): Timestamp(seconds: -62_135_596_800, nanoseconds: 0)]
        for (instant, settled) in expected {
            try await ref.setData(["at": instant])
            for _ in 0..<2 {
                try ref.write(try await ref.getDocument(as: Dated.self))
                let again = try await ref.getDocument().get("at")
                XCTAssertEqual(again as? Timestamp, settled)
            }
        }
    }

    func testATimestampWrittenWithAnOffsetReadsAsTheSameInstant() async throws {
        try store.writeFile("roundtrip/offset.json", #"{"date": "2014-09-09T02:00:00+02:00", "timestamp": "2014-09-09T00:00:00.5-00:30"}"#)
        struct Offsets: Codable, Equatable { var date: Date; var timestamp: Timestamp }
        let read = try await db.document("roundtrip/offset").getDocument(as: Offsets.self)
        XCTAssertEqual(read, Offsets(date: Date(timeIntervalSince1970: 1_410_220_800),
                                     timestamp: Timestamp(seconds: 1_410_222_600, nanoseconds: 500_000_000)))
    }

    struct Places: Codable, Equatable {
        var office: GeoPoint
        var corners: [GeoPoint]
    }

    func testGeoPoints() async throws {
        try await assertRoundTrip(Places(
            office: GeoPoint(latitude: 40.7414688, longitude: -74.0033873),
            corners: [GeoPoint(latitude: -90, longitude: -180), GeoPoint(latitude: 90, longitude: 180), GeoPoint(latitude: 0, longitude: 0)]
        ), through: ref)
    }

    /// Changed with the value model: `Firestore.Encoder` passes a GeoPoint through as itself (as
    /// Firebase's does), so the range is checked by the write, with the same words.
    func testAGeoPointOffTheEarthIsRefused() async throws {
        let error = thrownError { try self.ref.write(Places(office: GeoPoint(latitude: 91, longitude: 0), corners: [])) }
        XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error.map { "\($0)" }, "document roundtrip/value, field office: invalid GeoPoint: latitude 91.0 is outside -90...90")
        let fromData = await thrownError { try await self.ref.setData(["where": GeoPoint(latitude: 0, longitude: -180.5)]) }
        XCTAssertEqual(fromData.map { "\($0)" }, "document roundtrip/value, field where: invalid GeoPoint: longitude -180.5 is outside -180...180")
        XCTAssertNil(store.readFile("roundtrip/value.json"))

        try store.writeFile("roundtrip/bad-point.json", #"{"office": {"latitude": 0, "longitude": 200}, "corners": []}"#)
        let readError = await thrownError { _ = try await self.db.document("roundtrip/bad-point").getDocument(as: Places.self) }
        XCTAssertEqual(contextDescription(readError),
                       "document roundtrip/bad-point, field office: expected a GeoPoint, but longitude 200.0 is outside -180...180")
    }

    struct Links: Codable, Equatable {
        var cover: URL
        var file: URL
        var blob: Data
        var empty: Data
    }

    func testURLsAndData() async throws {
        try await assertRoundTrip(Links(
            cover: URL(string: "https://covers.openlibrary.org/b/id/10555691-S.jpg?size=small&q=a%20b#top")!,
            file: URL(fileURLWithPath: "/tmp/some file.json"),
            blob: Data([0, 1, 2, 253, 254, 255]),
            empty: Data()
        ), through: ref)
        let stored = try await ref.getDocument()
        // Changed with the value model: Data is stored as bytes (a tagged base64 string on disk),
        // and `get` gives Data, as Firebase's does.
        XCTAssertEqual(stored.get("blob") as? Data, Data([0, 1, 2, 253, 254, 255]))
        XCTAssertEqual(stored.get("empty") as? Data, Data())
        XCTAssertTrue(store.readFile("roundtrip/value.json")?.contains(#""$bytes": "AAEC/f7/""#) == true)
        XCTAssertEqual(stored.get("cover") as? String, "https://covers.openlibrary.org/b/id/10555691-S.jpg?size=small&q=a%20b#top")
        XCTAssertEqual(stored.get("file") as? String, "file:///tmp/some%20file.json")
    }

    // MARK: Structure

    struct Cover: Codable, Equatable {
        var small: URL
        var large: URL?
    }

    struct Review: Codable, Equatable {
        var stars: Int
        var text: String
        var tags: [String]
    }

    struct Nested: Codable, Equatable {
        var cover: Cover
        var optionalCover: Cover?
        var reviews: [Review]
        var emptyArray: [String]
        var counts: [String: Int]
        var byLanguage: [String: [Review]]
        var emptyMap: [String: String]
        var byNumber: [Int: String]
        var deep: [String: [String: [Double]]]
    }

    func testNestedStructsArraysAndDictionaries() async throws {
        let review = Review(stars: 5, text: "Don't panic", tags: ["fun", "series"])
        try await assertRoundTrip(Nested(
            cover: Cover(small: URL(string: "https://example.com/s.jpg")!, large: nil),
            optionalCover: Cover(small: URL(string: "https://example.com/s.jpg")!, large: URL(string: "https://example.com/l.jpg")!),
            reviews: [review, Review(stars: 1, text: "", tags: [])],
            emptyArray: [],
            counts: ["a": 1, "b": 2, "with.dot": 3, "with space": 4],
            byLanguage: ["en": [review], "es": []],
            emptyMap: [:],
            byNumber: [1: "one", 42: "forty-two"],
            deep: ["x": ["y": [1.5, -2]]]
        ), through: ref)
    }

    /// Changed with the value model: Firestore refuses an array directly inside an array and an
    /// empty field name, and so does the store (it used to write both).
    func testNestedArraysAndEmptyFieldNamesAreRefusedAsFirestoreRefusesThem() {
        struct Matrix: Codable { var rows: [[Int]] }
        let error = thrownError { try self.ref.write(Matrix(rows: [[1, 2], [3]])) }
        XCTAssertEqual(error.map { "\($0)" }, "document roundtrip/value, field rows[0]: an array cannot directly hold another array; put the inner array in a map")
        struct Counts: Codable { var counts: [String: Int] }
        let empty = thrownError { try self.ref.write(Counts(counts: ["": 4])) }
        XCTAssertEqual(empty.map { "\($0)" }, "document roundtrip/value, field counts.: a field name cannot be empty")
        XCTAssertNil(store.readFile("roundtrip/value.json"))
    }

    struct Optionals: Codable, Equatable {
        var title: String?
        var pages: Int?
        var cover: Cover?
        var tags: [String]?
        var maybeNumbers: [Int?]
    }

    func testOptionalsNilAndSet() async throws {
        try await assertRoundTrip(Optionals(title: nil, pages: nil, cover: nil, tags: nil, maybeNumbers: []), through: ref)
        XCTAssertEqual(store.readFile("roundtrip/value.json"), "{\n  \"maybeNumbers\": []\n}\n", "nil optionals are left out")
        try await assertRoundTrip(Optionals(title: "Dune", pages: 412, cover: Cover(small: URL(string: "https://example.com/s")!),
                                            tags: ["sf"], maybeNumbers: [1, nil, 3]), through: ref)
    }

    enum Status: String, Codable { case draft, inReview = "in review", approved, published }
    enum Priority: Int, Codable { case low = 1, high = 10 }

    struct Enums: Codable, Equatable {
        var status: Status
        var statuses: [Status]
        var priority: Priority
        var optionalStatus: Status?
    }

    func testEnumsByRawValue() async throws {
        try await assertRoundTrip(Enums(status: .inReview, statuses: [.draft, .approved, .published], priority: .high, optionalStatus: nil),
                                  through: ref)
        let stored = try await ref.getDocument()
        XCTAssertEqual(stored.get("status") as? String, "in review")
        XCTAssertEqual(stored.get("priority") as? Int, 10)

        try store.writeFile("roundtrip/bad-enum.json", #"{"status": "lost", "statuses": [], "priority": 1}"#)
        let error = await thrownError { _ = try await self.db.document("roundtrip/bad-enum").getDocument(as: Enums.self) }
        XCTAssertEqual(decodingCase(error), "dataCorrupted")
        XCTAssertTrue(contextDescription(error)?.hasPrefix("document roundtrip/bad-enum, field status: ") == true,
                      contextDescription(error) ?? "no description")
    }

    struct Renamed: Codable, Equatable {
        @DocumentID var id: String?
        var name: String
        var year: Date
        var reasonWhyILoveThis: String = ""

        enum CodingKeys: String, CodingKey {
            case id
            case name = "language_name"
            case year
        }
    }

    /// Changed with the value model: a Date is stored as a tagged timestamp, where it used to be
    /// a plain RFC 3339 string (which still reads as a Date, see GuideSnippetsTests).
    func testCodingKeysRenameAndLeaveOut() async throws {
        let swift = Renamed(name: "Swift", year: Date(timeIntervalSince1970: 1_410_220_800), reasonWhyILoveThis: "Codable")
        try ref.setData(from: swift)
        XCTAssertEqual(store.readFile("roundtrip/value.json"), """
            {
              "language_name": "Swift",
              "year": {
                "$timestamp": "2014-09-09T00:00:00Z"
              }
            }

            """)
        let back = try await ref.getDocument(as: Renamed.self)
        XCTAssertEqual(back, Renamed(id: "value", name: "Swift", year: Date(timeIntervalSince1970: 1_410_220_800), reasonWhyILoveThis: ""))
    }

    // MARK: The mapping without the store

    func testEncoderAndDecoderOnTheirOwn() throws {
        let fields = try Firestore.Encoder().encode(Simple(text: "a", empty: "", yes: true, no: false))
        XCTAssertEqual(fields["text"] as? String, "a")
        XCTAssertEqual(fields["yes"] as? Bool, true)
        XCTAssertEqual(fields.keys.sorted(), ["empty", "no", "text", "yes"])
        let back = try Firestore.Decoder().decode(Simple.self, from: fields)
        XCTAssertEqual(back, Simple(text: "a", empty: "", yes: true, no: false))
    }

    func testAValueThatIsNotAMapCannotBeADocument() {
        let error = thrownError { try self.ref.setData(from: [1, 2, 3]) }
        guard case .invalidValue(_, let context)? = error as? EncodingError else {
            return XCTFail("expected EncodingError.invalidValue, got \(String(describing: error))")
        }
        XCTAssertEqual(context.debugDescription, "document roundtrip/value: a document is a map of fields, but Array<Int> encodes to an array of 3 items")
        XCTAssertNil(store.readFile("roundtrip/value.json"))
    }

    /// `Firestore.Encoder` refuses NaN and the infinities by default, as Firebase's does.
    /// Changed with the value model: `setData` stores them, as Firestore does (they used to be
    /// refused because plain JSON has no way to write them).
    func testNonFiniteNumbersAreRefusedByTheEncoderAndStoredBySetData() async throws {
        struct Number: Codable { var value: Double }
        let nan = thrownError { try self.ref.setData(from: Number(value: .nan)) }
        XCTAssertEqual(encodingDescription(nan),
                       "document roundtrip/value, field value: nan is not allowed by nonConformingFloatEncodingStrategy .throw; use .convertToString, or store it through setData")
        XCTAssertNotNil(thrownError { try self.ref.setData(from: Number(value: .infinity)) })
        XCTAssertNil(store.readFile("roundtrip/value.json"))

        try await ref.setData(["value": Double.infinity, "nan": Double.nan, "low": -Double.infinity])
        let stored = try await ref.getDocument()
        XCTAssertEqual(stored.get("value") as? Double, .infinity)
        XCTAssertEqual(stored.get("low") as? Double, -.infinity)
        XCTAssertEqual((stored.get("nan") as? Double)?.isNaN, true)
        let number = try await ref.getDocument(as: Number.self)
        XCTAssertEqual(number.value, .infinity)
    }
}

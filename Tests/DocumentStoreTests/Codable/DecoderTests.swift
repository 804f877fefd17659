@testable import DocumentStore
import Foundation
import XCTest

/// `Firestore.Decoder` refuses what Firebase's refuses, says why in words, and reads what
/// `data()` and `Firestore.Encoder` give.
final class DecoderTests: StoreTestCase {
    struct Pair: Codable, Equatable {
        let x: Int
        let opt: Int?
    }

    func testAPresentOptionalIsDecodedAndAWrongTypeIsAnError() {
        assertDecodes(["x": 42, "opt": 5], to: Pair(x: 42, opt: 5))
        assertDecodes(["x": 42], to: Pair(x: 42, opt: nil))
        assertDecodes(["x": 42, "opt": NSNull()], to: Pair(x: 42, opt: nil))

        XCTAssertEqual(contextDescription(decodingError(["x": 42, "opt": true], as: Pair.self)),
                       "field opt: expected Int, found the boolean true")
        XCTAssertEqual(contextDescription(decodingError(["x": 42, "opt": "abc"], as: Pair.self)),
                       #"field opt: expected Int, found the string "abc""#)
        XCTAssertEqual(contextDescription(decodingError(["x": 45.55, "opt": 5], as: Pair.self)),
                       "field x: expected Int, found the number 45.55, which is not a whole number")
        XCTAssertEqual(contextDescription(decodingError(["opt": 5], as: Pair.self)),
                       "field x: expected Int, but the field is missing")
    }

    func testAStringWhereANumberBelongs() {
        struct Model: Codable, Equatable { let x: Int }
        let error = decodingError(["x": "abc"], as: Model.self)
        XCTAssertEqual(decodingCase(error), "typeMismatch")
        XCTAssertEqual(contextDescription(error), #"field x: expected Int, found the string "abc""#)
    }

    func testANumberTooBigForItsType() {
        struct Model: Codable, Equatable { let x: CChar }
        assertRoundTrip(Model(x: 42), fields: ["x": 42])
        let error = decodingError(["x": 12345], as: Model.self)
        XCTAssertEqual(decodingCase(error), "dataCorrupted")
        XCTAssertEqual(contextDescription(error), "field x: expected Int8, found the number 12345, which is out of range for Int8 (-128...127)")
    }

    func testWholeDoublesReadAsIntegersAndIntegersAsDoubles() {
        struct Model: Codable, Equatable {
            let count: Int
            let rating: Float
            let average: Double
        }
        assertDecodes(["count": 4.0, "rating": 4, "average": 4], to: Model(count: 4, rating: 4, average: 4))
    }

    func testABooleanIsNotANumberAndANumberIsNotABoolean() {
        struct Flag: Codable { let on: Bool }
        struct Count: Codable { let n: Int }
        XCTAssertEqual(contextDescription(decodingError(["on": 1], as: Flag.self)), "field on: expected Bool, found the number 1")
        XCTAssertEqual(contextDescription(decodingError(["n": true], as: Count.self)), "field n: expected Int, found the boolean true")
    }

    /// What `data()` returns (NSNumbers, Timestamp, Data...) decodes as it was written.
    func testWhatDataReturnsDecodes() async throws {
        struct Model: Codable, Equatable {
            var flag: Bool
            var count: Int64
            var ratio: Double
            var when: Date
            var blob: Data
            var place: GeoPoint
            var link: DocumentReference
            var tags: [String]
            var nested: [String: Int]
        }
        let model = Model(flag: true, count: 7, ratio: 0.5, when: Date(timeIntervalSince1970: 1_410_220_800), blob: Data([1, 2]),
                          place: GeoPoint(latitude: 1, longitude: 2), link: db.document("a/b"), tags: ["x"], nested: ["k": 1])
        let ref = db.document("decoded/one")
        try await ref.setData(Firestore.Encoder().encode(model))
        let snapshot = try await ref.getDocument()
        let data = try XCTUnwrap(snapshot.data())
        XCTAssertTrue(data["flag"] is NSNumber && data["count"] is NSNumber)
        assertDecodes(data, to: model)
        let again = try await ref.getDocument(as: Model.self)
        XCTAssertEqual(again, model)
    }

    /// Plain JSON written by a person maps as before: an RFC 3339 string to Date and Timestamp,
    /// a map of latitude and longitude to GeoPoint, base64 to Data, a path to a reference.
    func testPlainJSONStillMapsToFirestoreTypes() async throws {
        struct Model: Codable, Equatable {
            var date: Date
            var stamp: Timestamp
            var cached: Timestamp
            var place: GeoPoint
            var blob: Data
            var link: DocumentReference
        }
        try store.writeFile("plain/one.json", """
            {"date": "1843-01-01T00:00:00Z", "stamp": "2014-09-09T00:00:00.5Z", "cached": {"seconds": 1, "nanoseconds": 2},
             "place": {"latitude": 53.5, "longitude": 9.9}, "blob": "AAEC", "link": "books/hitchhiker"}
            """)
        let model = try await db.document("plain/one").getDocument(as: Model.self)
        XCTAssertEqual(model, Model(date: Date(timeIntervalSince1970: -4_007_750_400),
                                    stamp: Timestamp(seconds: 1_410_220_800, nanoseconds: 500_000_000),
                                    cached: Timestamp(seconds: 1, nanoseconds: 2),
                                    place: GeoPoint(latitude: 53.5, longitude: 9.9), blob: Data([0, 1, 2]),
                                    link: db.document("books/hitchhiker")))
    }

    func testAPathStringIsAReferenceOnlyWithinADocument() {
        struct Model: Codable { var link: DocumentReference }
        XCTAssertEqual(contextDescription(decodingError(["link": "books/x"], as: Model.self)),
                       #"field link: expected a DocumentReference, found the string "books/x""#)
        XCTAssertEqual(try? Firestore.Decoder().decode(Model.self, from: ["link": "books/x"], in: db.document("c/d")).link,
                       db.document("books/x"))
    }

    func testDocumentReferenceWithJSONDecoderIsFirestoreDecodingError() {
        let error = thrownError { _ = try JSONDecoder().decode([DocumentReference].self, from: Data(#"["books/x"]"#.utf8)) }
        guard case .decodingIsNotSupported(let message)? = error as? FirestoreDecodingError else {
            return XCTFail("expected FirestoreDecodingError.decodingIsNotSupported, got \(String(describing: error))")
        }
        XCTAssertEqual(message, "DocumentReference values can only be decoded with Firestore.Decoder")
    }

    // MARK: data(as:with:decoder:)

    func testDataAsTakesAServerTimestampBehaviorAndADecoder() async throws {
        struct Model: Codable, Equatable {
            var bookTitle: String
            var addedAt: Date
        }
        let ref = db.document("books/snake")
        try await ref.setData(["book_title": "Dune", "added_at": 1_410_220_800.0])
        let snapshot = try await ref.getDocument()
        let decoder = Firestore.Decoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        for behavior in [ServerTimestampBehavior.none, .estimate, .previous] {
            XCTAssertEqual(try snapshot.data(as: Model.self, with: behavior, decoder: decoder),
                           Model(bookTitle: "Dune", addedAt: Date(timeIntervalSince1970: 1_410_220_800)))
        }
        let error = thrownError { _ = try snapshot.data(as: Model.self) }
        XCTAssertEqual(contextDescription(error), "document books/snake, field bookTitle: expected String, but the field is missing")
    }

    // MARK: The issue's reproductions on reading

    func testAStoredIntegerReadsAsFloatDoubleAndInt64() async throws {
        let ref = db.document("restaurants/arinell")
        try await ref.setData(["avgRating": 4, "numRatings": 1, "name": "Arinell"])
        let snapshot = try await ref.getDocument()
        XCTAssertEqual(snapshot.data()?["avgRating"] as? Float, 4)
        XCTAssertEqual(snapshot.data()?["avgRating"] as? Double, 4)
        XCTAssertEqual(snapshot.data()?["avgRating"] as? Int64, 4)
        XCTAssertEqual(snapshot.data()?["avgRating"] as? Int, 4)
        XCTAssertEqual(snapshot.get("numRatings") as? Int, 1)
        XCTAssertNil(snapshot.data()?["name"] as? Float)
        XCTAssertTrue(snapshot.data()?["avgRating"] is NSNumber)
    }
}

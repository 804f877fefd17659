@testable import DocumentStore
import Foundation
import XCTest

/// Firebase's options on `Firestore.Encoder` and `Firestore.Decoder`: date, data and
/// non-conforming float strategies, key strategies, and `userInfo`, with Firebase's defaults.
final class CodableOptionsTests: StoreTestCase {
    struct Dated: Codable, Equatable { var at: Date }
    private let moment = Date(timeIntervalSince1970: 1_410_220_800.5)

    func testTheDefaultsAreFirebases() {
        let encoder = Firestore.Encoder()
        let decoder = Firestore.Decoder()
        guard case .timestamp = encoder.dateEncodingStrategy, case .blob = encoder.dataEncodingStrategy,
              case .throw = encoder.nonConformingFloatEncodingStrategy, case .useDefaultKeys = encoder.keyEncodingStrategy,
              case .timestamp = decoder.dateDecodingStrategy, case .blob = decoder.dataDecodingStrategy,
              case .throw = decoder.nonConformingFloatDecodingStrategy, case .useDefaultKeys = decoder.keyDecodingStrategy else {
            return XCTFail("a default differs from Firebase's")
        }
        XCTAssertTrue(encoder.userInfo.isEmpty && decoder.userInfo.isEmpty)
    }

    // MARK: Dates

    private func assertDate(_ encoding: Firestore.Encoder.DateEncodingStrategy, _ decoding: Firestore.Decoder.DateDecodingStrategy,
                            stores expected: Any, file: StaticString = #filePath, line: UInt = #line) {
        let encoder = Firestore.Encoder()
        encoder.dateEncodingStrategy = encoding
        let decoder = Firestore.Decoder()
        decoder.dateDecodingStrategy = decoding
        guard let encoded = assertEncodes(Dated(at: moment), to: ["at": expected], with: encoder, file: file, line: line) else { return }
        assertDecodes(encoded, to: Dated(at: moment), with: decoder, file: file, line: line)
    }

    func testDateStrategies() {
        assertDate(.timestamp, .timestamp, stores: Timestamp(seconds: 1_410_220_800, nanoseconds: 500_000_000))
        assertDate(.secondsSince1970, .secondsSince1970, stores: 1_410_220_800.5)
        assertDate(.millisecondsSince1970, .millisecondsSince1970, stores: 1_410_220_800_500.0)
        assertDate(.deferredToDate, .deferredToDate, stores: moment.timeIntervalSinceReferenceDate)
        assertDate(.custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day \(Int(date.timeIntervalSince1970) / 86_400) +\(date.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400))")
        }, .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let parts = text.dropFirst(4).split(separator: " +")
            return Date(timeIntervalSince1970: Double(parts[0])! * 86_400 + Double(parts[1])!)
        }, stores: "day 16322 +0.5")
    }

    func testISO8601AndFormattedDatesAreStrings() {
        let whole = Date(timeIntervalSince1970: 1_410_220_800)
        let encoder = Firestore.Encoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = Firestore.Decoder()
        decoder.dateDecodingStrategy = .iso8601
        let encoded = assertEncodes(Dated(at: whole), to: ["at": "2014-09-09T00:00:00Z"], with: encoder)
        assertDecodes(encoded ?? [:], to: Dated(at: whole), with: decoder)

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd"
        encoder.dateEncodingStrategy = .formatted(formatter)
        decoder.dateDecodingStrategy = .formatted(formatter)
        let formatted = assertEncodes(Dated(at: whole), to: ["at": "2014/09/09"], with: encoder)
        assertDecodes(formatted ?? [:], to: Dated(at: whole), with: decoder)

        let error = thrownError { _ = try decoder.decode(Dated.self, from: ["at": "9 Sept 2014"]) }
        XCTAssertEqual(contextDescription(error), #"field at: expected a date as yyyy/MM/dd, found the string "9 Sept 2014""#)
    }

    func testTheDefaultDateDecodingAlsoReadsAnRFC3339String() {
        assertDecodes(["at": "2014-09-09T00:00:00.5Z"], to: Dated(at: moment))
    }

    // MARK: Data

    struct Blob: Codable, Equatable { var bytes: Data }
    private let bytes = Data([0, 1, 2, 253, 254, 255])

    private func assertData(_ encoding: Firestore.Encoder.DataEncodingStrategy, _ decoding: Firestore.Decoder.DataDecodingStrategy,
                            stores expected: Any, file: StaticString = #filePath, line: UInt = #line) {
        let encoder = Firestore.Encoder()
        encoder.dataEncodingStrategy = encoding
        let decoder = Firestore.Decoder()
        decoder.dataDecodingStrategy = decoding
        guard let encoded = assertEncodes(Blob(bytes: bytes), to: ["bytes": expected], with: encoder, file: file, line: line) else { return }
        assertDecodes(encoded, to: Blob(bytes: bytes), with: decoder, file: file, line: line)
    }

    func testDataStrategies() throws {
        assertData(.blob, .blob, stores: bytes)
        assertData(.base64, .base64, stores: "AAEC/f7/")
        assertData(.deferredToData, .deferredToData, stores: [0, 1, 2, 253, 254, 255])
        assertData(.custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.map { String($0, radix: 16) }.joined(separator: ":"))
        }, .custom { decoder in
            Data(try decoder.singleValueContainer().decode(String.self).split(separator: ":").map { UInt8($0, radix: 16)! })
        }, stores: "0:1:2:fd:fe:ff")
        XCTAssertEqual(try Firestore.Encoder().encode(Blob(bytes: bytes))["bytes"] as? Data, bytes, "bytes come back as Data")
        assertDecodes(["bytes": "AAEC/f7/"], to: Blob(bytes: bytes))
    }

    // MARK: Non-conforming floats

    struct Reading: Codable, Equatable {
        var value: Double
        var small: Float

        static func == (a: Reading, b: Reading) -> Bool {
            (a.value == b.value || (a.value.isNaN && b.value.isNaN)) && (a.small == b.small || (a.small.isNaN && b.small.isNaN))
        }
    }

    func testNonConformingFloatsThrowByDefault() {
        let error = encodingError(Reading(value: .infinity, small: 0))
        XCTAssertEqual(encodingDescription(error),
                       "field value: inf is not allowed by nonConformingFloatEncodingStrategy .throw; use .convertToString, or store it through setData")
        XCTAssertNotNil(encodingError(Reading(value: 0, small: .nan)))
    }

    func testNonConformingFloatsAsStrings() {
        let encoder = Firestore.Encoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "NaN")
        let decoder = Firestore.Decoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "NaN")
        for (reading, fields) in [(Reading(value: .infinity, small: -.infinity), ["value": "+inf", "small": "-inf"]),
                                  (Reading(value: .nan, small: 1.5), ["value": "NaN", "small": 1.5] as [String: Any])] {
            let encoded = assertEncodes(reading, to: fields, with: encoder)
            assertDecodes(encoded ?? [:], to: reading, with: decoder)
        }
        XCTAssertEqual(contextDescription(thrownError { _ = try Firestore.Decoder().decode(Reading.self, from: ["value": "+inf", "small": 1]) }),
                       #"field value: expected a number, found the string "+inf""#)
    }

    /// Firestore stores NaN and the infinities; read back, they decode with the default decoder.
    func testStoredNonFiniteNumbersDecode() async throws {
        let ref = db.document("readings/odd")
        try await ref.setData(["value": Double.nan, "small": -Double.infinity])
        let reading = try await ref.getDocument(as: Reading.self)
        XCTAssertTrue(reading.value.isNaN)
        XCTAssertEqual(reading.small, -.infinity)
    }

    // MARK: Keys

    struct Book: Codable, Equatable {
        var numberOfPages: Int
        var authorName: String
        var isbn: String
    }

    func testSnakeCaseKeys() {
        let encoder = Firestore.Encoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = Firestore.Decoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let book = Book(numberOfPages: 42, authorName: "Douglas Adams", isbn: "0-330-25864-8")
        let encoded = assertEncodes(book, to: ["number_of_pages": 42, "author_name": "Douglas Adams", "isbn": "0-330-25864-8"], with: encoder)
        assertDecodes(encoded ?? [:], to: book, with: decoder)
        XCTAssertEqual(contextDescription(thrownError { _ = try decoder.decode(Book.self, from: ["numberOfPages": 1, "isbn": "x"]) }),
                       "field authorName: expected String, but the field is missing")
    }

    /// The keys of a `[String: …]` dictionary are data, so they are written as they are.
    func testKeyStrategiesLeaveDictionaryKeysAlone() {
        struct Shelf: Codable, Equatable {
            var booksByAuthor: [String: Book]
        }
        let encoder = Firestore.Encoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = Firestore.Decoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let shelf = Shelf(booksByAuthor: ["douglasAdams": Book(numberOfPages: 1, authorName: "DA", isbn: "x")])
        let encoded = assertEncodes(shelf, to: ["books_by_author": ["douglasAdams": ["number_of_pages": 1, "author_name": "DA", "isbn": "x"]]],
                                    with: encoder)
        assertDecodes(encoded ?? [:], to: shelf, with: decoder)
        assertDecodes(["books_by_author": ["snake_key": ["number_of_pages": 2, "author_name": "A", "isbn": "y"]]],
                      to: Shelf(booksByAuthor: ["snake_key": Book(numberOfPages: 2, authorName: "A", isbn: "y")]), with: decoder)
    }

    func testCustomKeys() {
        let encoder = Firestore.Encoder()
        encoder.keyEncodingStrategy = .custom { path in AnyKey(path.last!.stringValue.uppercased()) }
        let decoder = Firestore.Decoder()
        decoder.keyDecodingStrategy = .custom { path in
            let stored = path.last!.stringValue
            return AnyKey(stored == "NUMBEROFPAGES" ? "numberOfPages" : stored == "AUTHORNAME" ? "authorName" : stored.lowercased())
        }
        let book = Book(numberOfPages: 42, authorName: "Douglas Adams", isbn: "x")
        let encoded = assertEncodes(book, to: ["NUMBEROFPAGES": 42, "AUTHORNAME": "Douglas Adams", "ISBN": "x"], with: encoder)
        assertDecodes(encoded ?? [:], to: book, with: decoder)
    }

    // MARK: userInfo

    static let unitKey = CodingUserInfoKey(rawValue: "unit")!

    /// A length written in the unit `userInfo` names, as a model might do.
    struct Length: Codable, Equatable {
        var metres: Double

        init(metres: Double) { self.metres = metres }

        init(from decoder: any Decoder) throws {
            let factor = decoder.userInfo[CodableOptionsTests.unitKey] as? Double ?? 1
            metres = try decoder.singleValueContainer().decode(Double.self) * factor
        }

        func encode(to encoder: any Encoder) throws {
            let factor = encoder.userInfo[CodableOptionsTests.unitKey] as? Double ?? 1
            var container = encoder.singleValueContainer()
            try container.encode(metres / factor)
        }
    }

    func testUserInfoReachesNestedValues() {
        struct Trip: Codable, Equatable { var legs: [String: Length] }
        let encoder = Firestore.Encoder()
        encoder.userInfo[Self.unitKey] = 1000.0
        let decoder = Firestore.Decoder()
        decoder.userInfo[Self.unitKey] = 1000.0
        let trip = Trip(legs: ["out": Length(metres: 2500)])
        let encoded = assertEncodes(trip, to: ["legs": ["out": 2.5]], with: encoder)
        assertDecodes(encoded ?? [:], to: trip, with: decoder)
        assertDecodes(encoded ?? [:], to: Trip(legs: ["out": Length(metres: 2.5)]))
    }

    /// The options reach the store's own writes and reads.
    func testOptionsThroughSetDataAndGetDocument() async throws {
        let encoder = Firestore.Encoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        let decoder = Firestore.Decoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        struct Entry: Codable, Equatable { var loggedAt: Date }
        let ref = db.document("entries/one")
        try ref.setData(from: Entry(loggedAt: moment), encoder: encoder)
        let stored = try await ref.getDocument().get("logged_at")
        XCTAssertEqual(stored as? Double, 1_410_220_800.5)
        let entry = try await ref.getDocument(as: Entry.self, decoder: decoder)
        XCTAssertEqual(entry, Entry(loggedAt: moment))
    }
}

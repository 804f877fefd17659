@testable import DocumentStore
import Foundation
import XCTest

/// `Timestamp`'s own Codable form is Firebase's, `{"seconds": …, "nanoseconds": …}`, so a model a
/// Firebase app cached with JSONEncoder decodes here and the reverse; Firestore's coders pass a
/// Timestamp through as itself.
final class TimestampCodableTests: XCTestCase {
    func testJSONEncoderWritesSecondsAndNanoseconds() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(Timestamp(seconds: 37, nanoseconds: 123))
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"{"nanoseconds":123,"seconds":37}"#)
    }

    func testJSONDecoderReadsSecondsAndNanoseconds() throws {
        let timestamp = try JSONDecoder().decode(Timestamp.self, from: Data(#"{"seconds": 37, "nanoseconds": 122}"#.utf8))
        XCTAssertEqual(timestamp.seconds, 37)
        XCTAssertEqual(timestamp.nanoseconds, 122)
    }

    /// A model as a Firebase app caches it on disk.
    func testAModelCachedByAFirebaseAppDecodesAndTheReverse() throws {
        struct Visit: Codable, Equatable {
            var place: String
            var at: Timestamp
            var before: Timestamp
        }
        let cached = #"{"place": "Hamburg", "at": {"seconds": 1410220800, "nanoseconds": 500}, "before": {"seconds": -1, "nanoseconds": 999999999}}"#
        let visit = try JSONDecoder().decode(Visit.self, from: Data(cached.utf8))
        XCTAssertEqual(visit, Visit(place: "Hamburg", at: Timestamp(seconds: 1_410_220_800, nanoseconds: 500),
                                    before: Timestamp(seconds: -1, nanoseconds: 999_999_999)))
        let back = try JSONDecoder().decode(Visit.self, from: JSONEncoder().encode(visit))
        XCTAssertEqual(back, visit)
    }

    func testNanosecondsOutOfRangeAreACorruptedValueNotATrap() {
        let error = thrownError { _ = try JSONDecoder().decode(Timestamp.self, from: Data(#"{"seconds": 1, "nanoseconds": 1000000000}"#.utf8)) }
        XCTAssertEqual(decodingCase(error), "dataCorrupted")
        XCTAssertEqual(contextDescription(error), "expected nanoseconds in 0..<1000000000, found 1000000000")
        let negative = thrownError { _ = try JSONDecoder().decode(Timestamp.self, from: Data(#"{"seconds": 1, "nanoseconds": -1}"#.utf8)) }
        XCTAssertEqual(decodingCase(negative), "dataCorrupted")
    }

    func testAMissingPartIsKeyNotFound() {
        let error = thrownError { _ = try JSONDecoder().decode(Timestamp.self, from: Data(#"{"seconds": 1}"#.utf8)) }
        XCTAssertEqual(decodingCase(error), "keyNotFound")
    }

    func testFirestoresCodersPassItThroughAndReadTheCodableFormToo() throws {
        struct Model: Codable, Equatable { var at: Timestamp }
        let at = Timestamp(seconds: 5, nanoseconds: 6)
        XCTAssertEqual(try Firestore.Encoder().encode(Model(at: at))["at"] as? Timestamp, at)
        assertDecodes(["at": ["seconds": 5, "nanoseconds": 6]], to: Model(at: at))
        struct AsDate: Codable, Equatable { var at: Date }
        assertDecodes(["at": ["seconds": 5, "nanoseconds": 0]], to: AsDate(at: Date(timeIntervalSince1970: 5)))
    }

    func testHashableAndComparable() {
        let set: Set = [Timestamp(seconds: 1, nanoseconds: 2), Timestamp(seconds: 1, nanoseconds: 2)]
        XCTAssertEqual(set.count, 1)
        XCTAssertLessThan(Timestamp(seconds: -1, nanoseconds: 999_999_999), Timestamp(seconds: 0, nanoseconds: 0))
    }
}

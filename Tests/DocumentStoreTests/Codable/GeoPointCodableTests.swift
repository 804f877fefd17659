@testable import DocumentStore
import Foundation
import XCTest

/// `GeoPoint` is Codable as `{"latitude": …, "longitude": …}` with any coder, and Hashable;
/// Firestore's coders pass it through as itself.
final class GeoPointCodableTests: XCTestCase {
    func testJSONEncoderWritesLatitudeAndLongitude() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(GeoPoint(latitude: 37.77493, longitude: -122.41942)), as: UTF8.self)
        XCTAssertTrue(json.hasPrefix(#"{"latitude":37."#), json)
        XCTAssertTrue(json.contains(#","longitude":-122."#), json)
    }

    func testJSONDecoderReadsLatitudeAndLongitude() throws {
        let point = try JSONDecoder().decode(GeoPoint.self, from: Data(#"{"latitude": 37.77493, "longitude": -122.41942}"#.utf8))
        XCTAssertEqual(point.latitude, 37.77493, accuracy: 0.0001)
        XCTAssertEqual(point.longitude, -122.41942, accuracy: 0.0001)
    }

    func testHashable() {
        let places: [GeoPoint: String] = [GeoPoint(latitude: 37.77493, longitude: -122.41942): "foo"]
        XCTAssertEqual(places[GeoPoint(latitude: 37.77493, longitude: -122.41942)], "foo")
    }

    func testAPointOffTheEarthIsACorruptedValue() {
        let error = thrownError { _ = try JSONDecoder().decode(GeoPoint.self, from: Data(#"{"latitude": 91, "longitude": 0}"#.utf8)) }
        XCTAssertEqual(decodingCase(error), "dataCorrupted")
        XCTAssertEqual(contextDescription(error), "expected a GeoPoint, but latitude 91.0 is outside -90...90")
        let encoding = thrownError { _ = try JSONEncoder().encode(GeoPoint(latitude: 0, longitude: 181)) }
        guard case .invalidValue(_, let context)? = encoding as? EncodingError else {
            return XCTFail("expected EncodingError.invalidValue, got \(String(describing: encoding))")
        }
        XCTAssertEqual(context.debugDescription, "invalid GeoPoint: longitude 181.0 is outside -180...180")
    }

    func testFirestoresCodersPassItThroughAndReadAMapToo() throws {
        struct Model: Codable, Equatable { var at: GeoPoint }
        let point = GeoPoint(latitude: 53.5, longitude: 9.9)
        XCTAssertEqual(try Firestore.Encoder().encode(Model(at: point))["at"] as? GeoPoint, point)
        assertDecodes(["at": point], to: Model(at: point))
        assertDecodes(["at": ["latitude": 53.5, "longitude": 9.9]], to: Model(at: point))
        assertDecodes(["at": ["latitude": 53, "longitude": 9]], to: Model(at: GeoPoint(latitude: 53, longitude: 9)))
    }
}

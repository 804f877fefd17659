@testable import DocumentStore
import Foundation
import XCTest

/// `Firestore.Encoder` gives what Firebase's gives: Firestore's own types as themselves, numbers
/// typed, nil optionals left out, nested models as maps, a superclass under "super".
final class EncoderTests: StoreTestCase {
    func testAnIntRoundTripsAsAnInteger() {
        struct Model: Codable, Equatable { let x: Int }
        assertRoundTrip(Model(x: 42), fields: ["x": 42])
    }

    func testAModelWithoutFieldsIsAnEmptyDocument() {
        struct Model: Codable, Equatable {}
        assertRoundTrip(Model(), fields: [:])
    }

    func testAString() {
        struct Model: Codable, Equatable { let s: String }
        assertRoundTrip(Model(s: "abc"), fields: ["s": "abc"])
        XCTAssertEqual(try Firestore.Encoder().encode(Model(s: "abc"))["s"] as? String, "abc")
    }

    func testANilOptionalIsLeftOutAndASetOneIsWritten() {
        struct Model: Codable, Equatable {
            let x: Int
            let opt: Int?
        }
        assertRoundTrip(Model(x: 42, opt: nil), fields: ["x": 42])
        assertRoundTrip(Model(x: 42, opt: 7), fields: ["x": 42, "opt": 7])
        let encoded = try? Firestore.Encoder().encode(Model(x: 7, opt: nil))
        XCTAssertEqual(encoded?.keys.sorted(), ["x"])
    }

    func testExplicitNullWritesNullForNil() {
        struct Model: Codable, Equatable { @ExplicitNull var name: String? }
        assertRoundTrip(Model(name: nil), fields: ["name": NSNull()])
        assertRoundTrip(Model(name: "good name"), fields: ["name": "good name"])
        assertDecodes([:], to: Model(name: nil))
    }

    /// An enum with associated values and its own coding, one of them a Timestamp.
    enum Choice: Codable, Equatable {
        case number(Int)
        case text(String)
        case stamp(Timestamp)

        private enum CodingKeys: String, CodingKey { case number, text, stamp }
        private struct Unrecognised: Error {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let number = try? container.decode(Int.self, forKey: .number) {
                self = .number(number)
            } else if let text = try? container.decode(String.self, forKey: .text) {
                self = .text(text)
            } else if let stamp = try? container.decode(Timestamp.self, forKey: .stamp) {
                self = .stamp(stamp)
            } else {
                throw Unrecognised()
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .number(let number): try container.encode(number, forKey: .number)
            case .text(let text): try container.encode(text, forKey: .text)
            case .stamp(let stamp): try container.encode(stamp, forKey: .stamp)
            }
        }
    }

    func testAnEnumWithAssociatedValuesAndItsOwnCoding() {
        struct Model: Codable, Equatable {
            let x: Int
            let choice: Choice
        }
        assertRoundTrip(Model(x: 42, choice: .number(4)), fields: ["x": 42, "choice": ["number": 4]])
        assertRoundTrip(Model(x: 43, choice: .text("abc")), fields: ["x": 43, "choice": ["text": "abc"]])
        let now = Timestamp(date: Date())
        assertRoundTrip(Model(x: 44, choice: .stamp(now)), fields: ["x": 44, "choice": ["stamp": now]])
    }

    func testAGeoPointPassesThroughAsItself() throws {
        struct Model: Codable, Equatable { let p: GeoPoint }
        let point = GeoPoint(latitude: 1, longitude: -2)
        assertRoundTrip(Model(p: point), fields: ["p": point])
        XCTAssertEqual(try Firestore.Encoder().encode(Model(p: point))["p"] as? GeoPoint, point)
    }

    func testADateBecomesATimestamp() throws {
        struct Model: Codable, Equatable { let date: Date }
        let date = Date(timeIntervalSinceReferenceDate: 0)
        assertRoundTrip(Model(date: date), fields: ["date": Timestamp(date: date)])
        let encoded = try Firestore.Encoder().encode(Model(date: date))
        XCTAssertEqual(encoded["date"] as? Timestamp, Timestamp(seconds: 978_307_200, nanoseconds: 0))
        XCTAssertNil(encoded["date"] as? String, "not an RFC 3339 string, as before")
    }

    func testATimestampDecodesAsADate() {
        struct Written: Codable, Equatable { let date: Timestamp }
        struct Read: Codable, Equatable { let date: Date }
        let date = Date(timeIntervalSinceReferenceDate: 0)
        let encoded = assertEncodes(Written(date: Timestamp(date: date)), to: ["date": Timestamp(date: date)])
        assertDecodes(encoded ?? [:], to: Read(date: date))
    }

    func testADocumentReferencePassesThroughAsItself() throws {
        struct Model: Codable, Equatable { let doc: DocumentReference }
        let reference = db.document("abc/xyz")
        assertRoundTrip(Model(doc: reference), fields: ["doc": reference])
        XCTAssertEqual(try Firestore.Encoder().encode(Model(doc: reference))["doc"] as? DocumentReference, reference)
    }

    func testADocumentReferenceWithJSONEncoderIsFirestoreEncodingError() {
        let error = thrownError { _ = try JSONEncoder().encode(self.db.document("abc/xyz")) }
        guard case .encodingIsNotSupported(let message)? = error as? FirestoreEncodingError else {
            return XCTFail("expected FirestoreEncodingError.encodingIsNotSupported, got \(String(describing: error))")
        }
        XCTAssertEqual(message, "DocumentReference values can only be encoded with Firestore.Encoder")
    }

    func testADocumentReferenceIsNotADocument() {
        let error = encodingError(db.document("abc/xyz"))
        XCTAssertEqual(encodingDescription(error), "a document is a map of fields, but DocumentReference encodes to the reference abc/xyz")
    }

    func testATimestampPassesThroughAsItself() throws {
        struct Model: Codable, Equatable { let timestamp: Timestamp }
        let now = Timestamp(date: Date())
        assertRoundTrip(Model(timestamp: now), fields: ["timestamp": now])
        XCTAssertEqual(try Firestore.Encoder().encode(Model(timestamp: now))["timestamp"] as? Timestamp, now)
    }

    /// Every Swift number type and arrays of them, each typed as Firestore types it.
    func testNumbersStringsBooleansAndArrays() throws {
        struct Model: Codable, Equatable {
            let s: String
            let d: Double
            let f: Float
            let l: CLongLong
            let i: Int
            let b: Bool
            let sh: CShort
            let byte: CChar
            let uchar: CUnsignedChar
            let ai: [Int]
            let si: [String]
            let caseSensitive: String
            let casESensitive: String
            let casESensitivE: String
        }
        let model = Model(s: "abc", d: 123, f: -4, l: 1_234_567_890_123, i: -4444, b: false, sh: 123, byte: 45, uchar: 44,
                          ai: [1, 2, 3, 4], si: ["abc", "def"], caseSensitive: "aaa", casESensitive: "bbb", casESensitivE: "ccc")
        assertRoundTrip(model, fields: [
            "s": "abc", "d": 123.0, "f": -4.0, "l": Int64(1_234_567_890_123), "i": -4444, "b": false, "sh": 123, "byte": 45,
            "uchar": 44, "ai": [1, 2, 3, 4], "si": ["abc", "def"], "caseSensitive": "aaa", "casESensitive": "bbb", "casESensitivE": "ccc",
        ])
        let encoded = try Firestore.Encoder().encode(model)
        XCTAssertTrue(encoded["i"] is NSNumber && encoded["d"] is NSNumber && encoded["b"] is NSNumber, "numbers are NSNumbers, as Firebase's")
        XCTAssertEqual(encoded["b"] as? Bool, false)
        XCTAssertEqual(encoded["d"] as? Double, 123)
        XCTAssertEqual(encoded["l"] as? Int64, 1_234_567_890_123)
    }

    func testCodingKeysChooseWhatIsWritten() {
        struct Model: Codable, Equatable {
            var s: String
            var ms: String = "filler"
            var d: Double
            var md: Double = 42.42
            var i: Int
            var mi: Int = -9
            var b: Bool
            var mb: Bool = false

            enum CodingKeys: String, CodingKey { case s, d, i, b }
        }
        let encoded = assertEncodes(Model(s: "abc", ms: "dummy", d: 123.3, md: 0, i: -4444, mi: 0, b: true, mb: true),
                                    to: ["s": "abc", "d": 123.3, "i": -4444, "b": true])
        assertDecodes(encoded ?? [:], to: Model(s: "abc", d: 123.3, i: -4444, b: true))
    }

    func testNestedModelsArraysAndDictionaries() {
        struct Inner: Codable, Equatable {
            var age: Int8
            var weight: Double
        }
        struct Group: Codable, Equatable {
            var group: String
            var groupList: [Inner]
            var groupMap: [String: Inner]
            var point: GeoPoint
        }
        struct Model: Codable, Equatable {
            var id: Int64
            var group: Group
        }
        let model = Model(id: 123, group: Group(
            group: "g1",
            groupList: [Inner(age: 20, weight: 80.1), Inner(age: 25, weight: 85.1)],
            groupMap: ["name1": Inner(age: 30, weight: 64.2), "name2": Inner(age: 35, weight: 79.2)],
            point: GeoPoint(latitude: 12.0, longitude: 9.1)))
        assertRoundTrip(model, fields: [
            "id": 123,
            "group": [
                "group": "g1",
                "point": GeoPoint(latitude: 12.0, longitude: 9.1),
                "groupList": [["age": 20, "weight": 80.1] as [String: Any], ["age": 25, "weight": 85.1] as [String: Any]],
                "groupMap": ["name1": ["age": 30, "weight": 64.2] as [String: Any], "name2": ["age": 35, "weight": 79.2] as [String: Any]],
            ] as [String: Any],
        ])
    }

    /// A flat model that keeps one of its properties in a nested map of the document.
    func testAFlatModelOverANestedMap() {
        struct Model: Codable, Equatable {
            var id: Int64
            var name: String

            init(id: Int64, name: String) {
                self.id = id
                self.name = name
            }

            private enum CodingKeys: String, CodingKey { case id, nested }
            private enum NestedKeys: String, CodingKey { case name }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(Int64.self, forKey: .id)
                name = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested).decode(String.self, forKey: .name)
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
                try nested.encode(name, forKey: .name)
            }
        }
        assertRoundTrip(Model(id: 12345, name: "ModelName"), fields: ["id": 12345, "nested": ["name": "ModelName"]])
    }

    // MARK: superEncoder and superDecoder

    class Vehicle: Codable, Equatable {
        var wheels: Double?
        var maker: String?

        init(wheels: Double, maker: String) {
            self.wheels = wheels
            self.maker = maker
        }

        static func == (a: Vehicle, b: Vehicle) -> Bool { a.wheels == b.wheels && a.maker == b.maker && a.isEqual(to: b) }
        func isEqual(to other: Vehicle) -> Bool { true }

        private enum CodingKeys: String, CodingKey { case wheels, maker }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            wheels = try container.decode(Double.self, forKey: .wheels)
            maker = try container.decode(String.self, forKey: .maker)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(wheels, forKey: .wheels)
            try container.encode(maker, forKey: .maker)
        }
    }

    final class Truck: Vehicle {
        var inspected: Timestamp?

        init(wheels: Double, maker: String, inspected: Timestamp) {
            self.inspected = inspected
            super.init(wheels: wheels, maker: maker)
        }

        override func isEqual(to other: Vehicle) -> Bool { (other as? Truck)?.inspected == inspected }

        private enum CodingKeys: String, CodingKey { case inspected }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inspected = try container.decode(Timestamp.self, forKey: .inspected)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(inspected, forKey: .inspected)
            try super.encode(to: container.superEncoder())
        }
    }

    /// The reproduction: `superDecoder()` read the object's own fields, not "super".
    func testAClassThatEncodesItsSuperclassThroughSuperEncoderDecodesBack() {
        let truck = Truck(wheels: 100, maker: "name", inspected: Timestamp(seconds: 123_456_789, nanoseconds: 654_321))
        assertRoundTrip(truck, fields: [
            "super": ["wheels": 100.0, "maker": "name"],
            "inspected": Timestamp(seconds: 123_456_789, nanoseconds: 654_321),
        ])
    }

    func testSuperEncoderForAKeyAndInAnArray() throws {
        struct Model: Codable, Equatable {
            var base: String
            var listed: String

            enum CodingKeys: String, CodingKey { case base }

            init(base: String, listed: String) {
                self.base = base
                self.listed = listed
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                base = try String(from: container.superDecoder(forKey: .base))
                var list = try decoder.container(keyedBy: AnyKey.self).nestedUnkeyedContainer(forKey: AnyKey("list"))
                listed = try String(from: list.superDecoder())
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try base.encode(to: container.superEncoder(forKey: .base))
                var other = encoder.container(keyedBy: AnyKey.self)
                var list = other.nestedUnkeyedContainer(forKey: AnyKey("list"))
                try listed.encode(to: list.superEncoder())
            }
        }
        assertRoundTrip(Model(base: "b", listed: "l"), fields: ["base": "b", "list": ["l"]])
    }

    // MARK: What is not a document

    func testAnArrayIsNotADocument() {
        struct Model: Codable, Equatable { var name: String }
        let error = encodingError([Model(name: "1")])
        XCTAssertEqual(encodingDescription(error), "a document is a map of fields, but Array<Model> encodes to an array of 1 item")
    }

    func testAFieldValueIsNotADocument() {
        let error = encodingError(FieldValue.serverTimestamp())
        XCTAssertEqual(encodingDescription(error), "a document is a map of fields, but FieldValue encodes to FieldValue.serverTimestamp()")
    }

    func testAnErrorInsideTheModelNamesTheField() {
        struct Inner: Codable { var price: Double }
        struct Model: Codable { var items: [Inner] }
        let error = encodingError(Model(items: [Inner(price: 1), Inner(price: .nan)]))
        XCTAssertEqual(encodingDescription(error),
                       "field items[1].price: nan is not allowed by nonConformingFloatEncodingStrategy .throw; use .convertToString, or store it through setData")
    }

    func testAnUnsignedIntegerBeyondInt64IsRefused() {
        struct Model: Codable { var big: UInt64 }
        XCTAssertNotNil(assertEncodes(Model(big: UInt64(Int64.max)), to: ["big": Int64.max]))
        let error = encodingError(Model(big: UInt64(Int64.max) + 1))
        XCTAssertEqual(encodingDescription(error),
                       "field big: 9223372036854775808 is out of range for a 64-bit integer, the only integer Firestore stores")
    }
}

/// A key made from a string, for models that pick their keys at run time.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

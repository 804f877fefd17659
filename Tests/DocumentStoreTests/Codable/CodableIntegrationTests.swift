@testable import DocumentStore
import Foundation
import XCTest

/// Models written through a real store, by a document reference, a write batch and a
/// transaction (each with Firebase's completion forms), and read back.
final class CodableIntegrationTests: StoreTestCase {
    enum Flavor: CaseIterable { case reference, batch, transaction }

    /// Writes `value` to `document` the way `flavor` writes, and waits for the completion.
    private func setData<T: Encodable>(from value: T, forDocument document: DocumentReference, _ flavor: Flavor,
                                       merge: Bool? = nil, mergeFields: [Any]? = nil,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let done = expectation(description: "setData(from:) by \(flavor)")
        let completion: (Error?) -> Void = { error in
            XCTAssertNil(error, "\(flavor)", file: file, line: line)
            done.fulfill()
        }
        switch flavor {
        case .reference:
            if let merge {
                try document.setData(from: value, merge: merge, completion: completion)
            } else if let mergeFields {
                try document.setData(from: value, mergeFields: mergeFields, completion: completion)
            } else {
                try document.setData(from: value, completion: completion)
            }
        case .batch:
            let batch = document.firestore.batch()
            if let merge {
                try batch.setData(from: value, forDocument: document, merge: merge)
            } else if let mergeFields {
                try batch.setData(from: value, forDocument: document, mergeFields: mergeFields)
            } else {
                try batch.setData(from: value, forDocument: document)
            }
            batch.commit(completion: completion)
        case .transaction:
            document.firestore.runTransaction({ transaction, _ in
                do {
                    if let merge {
                        try transaction.setData(from: value, forDocument: document, merge: merge)
                    } else if let mergeFields {
                        try transaction.setData(from: value, forDocument: document, mergeFields: mergeFields)
                    } else {
                        try transaction.setData(from: value, forDocument: document)
                    }
                } catch {
                    XCTFail("transaction.setData(from:) failed: \(error)", file: file, line: line)
                }
                return nil
            }, completion: { _, error in completion(error) })
        }
        wait(for: [done], timeout: 10)
    }

    /// The document as `getDocument(completion:)` gives it.
    private func read(_ document: DocumentReference, file: StaticString = #filePath, line: UInt = #line) throws -> DocumentSnapshot {
        let done = expectation(description: "getDocument \(document.path)")
        var snapshot: DocumentSnapshot?
        document.getDocument { read, error in
            XCTAssertNil(error, file: file, line: line)
            snapshot = read
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        return try XCTUnwrap(snapshot, file: file, line: line)
    }

    func testFirestoresTypesRoundTrip() throws {
        struct Model: Codable, Equatable {
            var name: String
            var age: Int32
            var ts: Timestamp
            var geoPoint: GeoPoint
            var docRef: DocumentReference
        }
        func model(at document: DocumentReference) -> Model {
            Model(name: "test", age: 42, ts: Timestamp(seconds: 987_654_321, nanoseconds: 0),
                  geoPoint: GeoPoint(latitude: 45, longitude: 54), docRef: document)
        }
        for flavor in Flavor.allCases {
            let document = db.collection("models").document("round-trip-\(flavor)")
            try setData(from: model(at: document), forDocument: document, flavor)
            XCTAssertEqual(try read(document).data(as: Model.self), model(at: document), "\(flavor)")
        }
        let document = db.document("models/round-trip-reference")
        let expected = model(at: document)
        let stored = try read(document)
        XCTAssertEqual(stored.get("ts") as? Timestamp, expected.ts)
        XCTAssertEqual(stored.get("geoPoint") as? GeoPoint, expected.geoPoint)
        XCTAssertEqual(stored.get("docRef") as? DocumentReference, document)
        XCTAssertEqual(stored.get("age") as? Int32, 42)
    }

    func testAServerTimestampIsSetByEveryKindOfWrite() throws {
        struct Model: Codable, Equatable {
            var name: String
            @ServerTimestamp var ts: Timestamp? = nil
        }
        let document = db.document("models/stamped")
        for flavor in Flavor.allCases {
            let before = Timestamp().truncatedToMicroseconds
            try setData(from: Model(name: "name"), forDocument: document, flavor)
            let decoded = try read(document).data(as: Model.self)
            let ts = try XCTUnwrap(decoded.ts, "\(flavor)")
            XCTAssertGreaterThanOrEqual(ts, before, "\(flavor)")
            XCTAssertGreaterThan(ts.seconds, 1_500_000_000, "\(flavor)")
        }
    }

    func testFieldValuesInAModel() throws {
        struct Model: Encodable {
            var name: String
            var array: FieldValue
            var intValue: FieldValue
        }
        let model = Model(name: "name", array: .arrayUnion([1, 2, 3]), intValue: .increment(Int64(3)))
        for flavor in Flavor.allCases {
            let document = db.document("models/sentinels-\(flavor)")
            try setData(from: model, forDocument: document, flavor)
            let data = try read(document)
            XCTAssertEqual(data["array"] as? [Int], [1, 2, 3], "\(flavor)")
            XCTAssertEqual(data["intValue"] as? Int, 3, "\(flavor)")
        }
    }

    func testDataIsStoredAsBytes() throws {
        struct Model: Encodable {
            var name: String
            var data: Data
            var emptyData: Data
        }
        let document = db.document("models/blob")
        for flavor in Flavor.allCases {
            try setData(from: Model(name: "name", data: Data([1, 2, 3, 4]), emptyData: Data()), forDocument: document, flavor)
            let data = try read(document)
            XCTAssertEqual(data["data"] as? Data, Data([1, 2, 3, 4]), "\(flavor)")
            XCTAssertEqual(data["emptyData"] as? Data, Data(), "\(flavor)")
        }
        XCTAssertEqual(store.readFile("models/blob.json"), """
            {
              "data": {
                "$bytes": "AQIDBA=="
              },
              "emptyData": {
                "$bytes": ""
              },
              "name": "name"
            }

            """)
    }

    func testExplicitNullIsWrittenAndANilOptionalIsNot() throws {
        struct Model: Encodable {
            var name: String
            @ExplicitNull var explicitNull: String?
            var optional: String?
        }
        let document = db.document("models/nulls")
        for flavor in Flavor.allCases {
            try setData(from: Model(name: "name", explicitNull: nil, optional: nil), forDocument: document, flavor)
            let data = try XCTUnwrap(try read(document).data())
            XCTAssertTrue(data.keys.contains("explicitNull"), "\(flavor)")
            XCTAssertTrue(data["explicitNull"] is NSNull, "\(flavor)")
            XCTAssertFalse(data.keys.contains("optional"), "\(flavor)")
        }
    }

    func testDocumentIDAsReferenceAndAsString() throws {
        struct ByReference: Codable, Equatable {
            var name: String
            @DocumentID var docId: DocumentReference?
        }
        struct ByString: Codable, Equatable {
            var name: String
            @DocumentID var docId: String?
        }
        let document = db.document("models/identified")
        try setData(from: ByReference(name: "name", docId: nil), forDocument: document, .reference)
        XCTAssertEqual(try read(document).data() as? [String: String], ["name": "name"], "docId is not written")
        XCTAssertEqual(try read(document).data(as: ByReference.self), ByReference(name: "name", docId: document))

        try setData(from: ByString(name: "other", docId: "ignored"), forDocument: document, .reference)
        XCTAssertEqual(try read(document).data() as? [String: String], ["name": "other"])
        XCTAssertEqual(try read(document).data(as: ByString.self), ByString(name: "other", docId: "identified"))
    }

    func testDocumentIDInAModelWithItsOwnCoding() throws {
        struct Model: Codable, Equatable {
            var name: String
            @DocumentID var docId: String?

            enum CodingKeys: String, CodingKey { case name, docId }

            init(name: String, docId: String?) {
                self.name = name
                self.docId = docId
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                docId = try container.decode(DocumentID<String>.self, forKey: .docId).wrappedValue
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
            }
        }
        let document = db.document("models/custom")
        try setData(from: Model(name: "name", docId: nil), forDocument: document, .reference)
        XCTAssertEqual(try read(document).data() as? [String: String], ["name": "name"])
        XCTAssertEqual(try read(document).data(as: Model.self), Model(name: "name", docId: "custom"))
    }

    func testSetThenMergeThenMergeFields() throws {
        struct Model: Codable, Equatable {
            var name: String? = nil
            var age: Int32? = nil
            var hobby: String? = nil
        }
        for flavor in Flavor.allCases {
            let document = db.document("models/merged-\(flavor)")
            try setData(from: Model(name: "test", age: 42), forDocument: document, flavor)
            // name is nil, so left out, so kept by the merge.
            try setData(from: Model(name: nil, age: 43, hobby: "No"), forDocument: document, flavor, merge: true)
            XCTAssertEqual(try read(document).data(as: Model.self), Model(name: "test", age: 43, hobby: "No"), "\(flavor)")

            try setData(from: Model(name: "xxxx", age: 10, hobby: "Play"), forDocument: document, flavor,
                        mergeFields: ["age", FieldPath(["hobby"])])
            XCTAssertEqual(try read(document).data(as: Model.self), Model(name: "test", age: 10, hobby: "Play"), "\(flavor)")
        }
    }

    func testAddDocumentFromAModel() throws {
        struct Model: Codable, Equatable { var name: String }
        let added = expectation(description: "addDocument(from:)")
        let document = try db.collection("models").addDocument(from: Model(name: "test")) { error in
            XCTAssertNil(error)
            added.fulfill()
        }
        wait(for: [added], timeout: 10)
        XCTAssertEqual(try read(document).data(as: Model.self), Model(name: "test"))
    }

    // MARK: The issue's reproductions

    func testEncoderOutputHasTimestampAndGeoPointAndSetDataTakesIt() throws {
        struct Office: Codable, Equatable {
            var opened: Date
            var location: GeoPoint
        }
        let office = Office(opened: Date(timeIntervalSince1970: 1_410_220_800), location: GeoPoint(latitude: 53.5, longitude: 9.9))
        let fields = try Firestore.Encoder().encode(office)
        XCTAssertEqual(fields["opened"] as? Timestamp, Timestamp(seconds: 1_410_220_800, nanoseconds: 0))
        XCTAssertEqual(fields["location"] as? GeoPoint, GeoPoint(latitude: 53.5, longitude: 9.9))

        let document = db.document("offices/hamburg")
        try document.write(fields)
        XCTAssertEqual(try read(document).data(as: Office.self), office)
        // Written back as data() gives it, every value keeps its type.
        try document.write(try XCTUnwrap(try read(document).data()))
        XCTAssertEqual(try read(document).data(as: Office.self), office)
        XCTAssertEqual(store.readFile("offices/hamburg.json"), """
            {
              "location": {
                "$geopoint": {
                  "latitude": 53.5,
                  "longitude": 9.9
                }
              },
              "opened": {
                "$timestamp": "2014-09-09T00:00:00Z"
              }
            }

            """)
    }

    func testDataWrittenBackFromASnapshotKeepsEveryType() throws {
        let document = db.document("typed/all")
        try document.write(["bool": true, "int": 1, "double": 1.0, "small": Int8(3), "string": "s", "null": NSNull(),
                            "list": [1, 2.5, "x"], "map": ["inner": false]])
        let first = try XCTUnwrap(try read(document).data())
        try document.write(first)
        let second = try XCTUnwrap(try read(document).data())
        XCTAssertEqual(typedText(second), typedText(first))
        XCTAssertEqual(typedText(second), #"{bool: true, double: 1.0, int: 1, list: [1, 2.5, "x"], map: {inner: false}, null: null, small: 3, string: "s"}"#)
    }
}

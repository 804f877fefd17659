@testable import DocumentStore
import Foundation
import XCTest

/// A model can carry `FieldValue` sentinels: `Firestore.Encoder` passes them through and the
/// write applies them as Firestore does. Other encoders refuse them.
final class FieldValueEncodingTests: StoreTestCase {
    func testASentinelPassesThroughTheEncoder() throws {
        struct Model: Encodable { var fieldValue: FieldValue }
        assertEncodes(Model(fieldValue: .delete()), to: ["fieldValue": FieldValue.delete()])
        XCTAssertEqual(try Firestore.Encoder().encode(Model(fieldValue: .delete()))["fieldValue"] as? FieldValue, .delete())
    }

    func testJSONEncoderRefusesIt() {
        let error = thrownError { _ = try JSONEncoder().encode([FieldValue.delete()]) }
        guard case .encodingIsNotSupported(let message)? = error as? FirestoreEncodingError else {
            return XCTFail("expected FirestoreEncodingError.encodingIsNotSupported, got \(String(describing: error))")
        }
        XCTAssertEqual(message, "FieldValue values can only be encoded with Firestore.Encoder")
    }

    func testFieldValueIsEquatableAsFirebases() {
        XCTAssertEqual(FieldValue.delete(), FieldValue.delete())
        XCTAssertEqual(FieldValue.serverTimestamp(), FieldValue.serverTimestamp())
        XCTAssertNotEqual(FieldValue.delete(), FieldValue.serverTimestamp())
        XCTAssertEqual(FieldValue.increment(Int64(1)), FieldValue.increment(Int64(1)))
        XCTAssertNotEqual(FieldValue.increment(Int64(1)), FieldValue.increment(1.0), "an integer is not a double")
        XCTAssertNotEqual(FieldValue.increment(Int64(1)), FieldValue.increment(Int64(2)))
        XCTAssertEqual(FieldValue.arrayUnion([1, "a"]), FieldValue.arrayUnion([1, "a"]))
        XCTAssertNotEqual(FieldValue.arrayUnion([1]), FieldValue.arrayRemove([1]))
        XCTAssertNotEqual(FieldValue.arrayUnion([1, 2]), FieldValue.arrayUnion([2, 1]))
        XCTAssertEqual(FieldValue.minimum(Int64(3)), FieldValue.minimum(Int64(3)))
        XCTAssertNotEqual(FieldValue.minimum(Int64(3)), FieldValue.maximum(Int64(3)))
    }

    func testEverySentinelInAModel() {
        struct Model: Encodable {
            var count = FieldValue.increment(Int64(1))
            var score = FieldValue.increment(0.5)
            var tags = FieldValue.arrayUnion(["new", 2])
            var old = FieldValue.arrayRemove(["gone"])
            var low = FieldValue.minimum(Int64(0))
            var high = FieldValue.maximum(9.5)
            var at = FieldValue.serverTimestamp()
            var nested = ["gone": FieldValue.delete()]
        }
        assertEncodes(Model(), to: [
            "count": FieldValue.increment(Int64(1)), "score": FieldValue.increment(0.5), "tags": FieldValue.arrayUnion(["new", 2]),
            "old": FieldValue.arrayRemove(["gone"]), "low": FieldValue.minimum(Int64(0)), "high": FieldValue.maximum(9.5),
            "at": FieldValue.serverTimestamp(), "nested": ["gone": FieldValue.delete()],
        ])
    }

    func testASentinelInsideAnArrayIsRefused() {
        struct Model: Encodable { var list: [FieldValue] }
        let error = encodingError(Model(list: [.serverTimestamp()]))
        XCTAssertEqual(encodingDescription(error), "field list[0]: FieldValue.serverTimestamp() cannot be used inside an array")
    }

    // MARK: Written with setData(from:)

    struct Counter: Encodable {
        var name: String
        var visits: FieldValue
        var tags: FieldValue
    }

    func testIncrementAndArrayUnionOnAMissingDocument() async throws {
        let ref = db.document("counters/new")
        try ref.write(Counter(name: "n", visits: .increment(Int64(1)), tags: .arrayUnion(["a", "b"])))
        let snapshot = try await ref.getDocument()
        XCTAssertEqual(snapshot.get("visits") as? Int64, 1)
        XCTAssertEqual(snapshot.get("tags") as? [String], ["a", "b"])
    }

    func testIncrementAndArrayUnionMergedIntoWhatIsStored() async throws {
        let ref = db.document("counters/old")
        try await ref.setData(["name": "n", "visits": 41, "tags": ["a"], "kept": true])
        try ref.write(Counter(name: "n", visits: .increment(Int64(1)), tags: .arrayUnion(["a", "c"])), merge: true)
        let snapshot = try await ref.getDocument()
        XCTAssertEqual(snapshot.get("visits") as? Int64, 42)
        XCTAssertEqual(snapshot.get("tags") as? [String], ["a", "c"])
        XCTAssertEqual(snapshot.get("kept") as? Bool, true, "merge keeps the fields the model does not name")
    }

    struct Cleanup: Encodable {
        var name: String
        var obsolete: FieldValue = .delete()
    }

    func testDeleteWithMergeRemovesTheField() async throws {
        let ref = db.document("cleanups/one")
        try await ref.setData(["name": "old", "obsolete": "x", "other": 1])
        let done = expectation(description: "setData(from:merge:completion:)")
        try ref.setData(from: Cleanup(name: "new"), merge: true) { error in
            XCTAssertNil(error)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
        let data = try await ref.getDocument().data()
        XCTAssertEqual(data?.keys.sorted(), ["name", "other"])
        XCTAssertEqual(data?["name"] as? String, "new")
    }

    func testDeleteWithoutMergeIsRefusedAsFirestoreRefusesIt() async throws {
        let ref = db.document("cleanups/two")
        try await ref.setData(["name": "old"])
        let error = thrownError { try ref.write(Cleanup(name: "new")) }
        XCTAssertEqual((error as NSError?)?.domain, FirestoreErrorDomain)
        XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        let name = try await ref.getDocument().get("name")
        XCTAssertEqual(name as? String, "old", "nothing written")
    }

    func testDeleteInABatchAndATransaction() async throws {
        let first = db.document("cleanups/batch")
        let second = db.document("cleanups/transaction")
        try await first.setData(["name": "old", "obsolete": 1])
        try await second.setData(["name": "old", "obsolete": 1])
        let batch = db.batch()
        try batch.setData(from: Cleanup(name: "b"), forDocument: first, merge: true)
        try await batch.commit()
        _ = try await db.runTransaction { transaction, _ in
            _ = try? transaction.setData(from: Cleanup(name: "t"), forDocument: second, merge: true)
            return nil
        }
        let batched = try await first.getDocument().data()
        let transacted = try await second.getDocument().data()
        XCTAssertEqual(batched?.keys.sorted(), ["name"])
        XCTAssertEqual(transacted?.keys.sorted(), ["name"])
    }
}

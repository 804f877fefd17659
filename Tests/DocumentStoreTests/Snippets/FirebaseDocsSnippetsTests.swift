@testable import DocumentStore
import Foundation
import XCTest

/// The everyday write code of Firebase's documentation and quickstarts, as written there, with
/// only the import changed: it must compile and mean what it means on Firestore.
final class FirebaseDocsSnippetsTests: XCTestCase {
    private var store: TemporaryStore!
    private var db: Firestore { store.db }

    override func setUpWithError() throws { store = try TemporaryStore() }
    override func tearDown() { store.remove() }

    private func fields(_ path: String) async throws -> [String: Any] {
        try await db.document(path).getDocument().data() ?? [:]
    }

    /// Outside async code, as in a view controller: in async code Swift picks the `async throws`
    /// overload, for Firebase's API as for this one.
    func testPlainWritesNeedNoTry() throws {
        let errors = Locked<[String]>([])
        db.writeErrorHandler = { error in errors.withLock { $0.append("\(error)") } }
        let ref = db.collection("cities").document("LA")
        ref.setData(["x": 1])
        ref.setData(["capital": true], merge: true)
        ref.updateData(["population": FieldValue.increment(Int64(50))])
        db.collection("cities").document("BJ").setData(["capital": true], merge: true)
        let added = db.collection("cities").addDocument(data: ["name": "Tokyo"])
        let data = try db.document("cities/LA").readSnapshot().data() ?? [:]
        XCTAssertEqual(data["x"] as? Int, 1)
        XCTAssertEqual(data["capital"] as? Bool, true)
        XCTAssertEqual(data["population"] as? Int64, 50)
        XCTAssertEqual(try added.readSnapshot().data()?["name"] as? String, "Tokyo")
        db.document("cities/nowhere").delete()
        XCTAssertTrue(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
    }

    func testAPlainWriteThatFailsIsReportedToTheHandler() throws {
        let reported = expectation(description: "reported")
        db.writeErrorHandler = { error in
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.notFound.rawValue)
            reported.fulfill()
        }
        db.document("cities/nowhere").updateData(["capital": true])
        wait(for: [reported], timeout: 30)
    }

    func testTheDocsDataTypesExample() async throws {
        let now = Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_000)
        let docData: [String: Any] = [
            "stringExample": "Hello world!",
            "booleanExample": true,
            "numberExample": 3.14159265,
            "dateExample": now,
            "arrayExample": [5, true, "hello"],
            "nullExample": NSNull(),
            "objectExample": ["a": 5, "b": ["nested": "foo"]],
        ]
        try await db.collection("data").document("one").setData(docData)
        let data = try await fields("data/one")
        XCTAssertEqual(data["stringExample"] as? String, "Hello world!")
        XCTAssertEqual(data["booleanExample"] as? Bool, true)
        XCTAssertEqual(data["numberExample"] as? Double, 3.14159265)
        XCTAssertEqual(data["dateExample"] as? Timestamp, now)
        XCTAssertTrue(data["nullExample"] is NSNull)
        let array = try XCTUnwrap(data["arrayExample"] as? [Any])
        XCTAssertEqual(array[0] as? Int, 5)
        XCTAssertEqual(array[1] as? Bool, true)
        XCTAssertEqual(array[2] as? String, "hello")
        let object = try XCTUnwrap(data["objectExample"] as? [String: Any])
        XCTAssertEqual((object["b"] as? [String: Any])?["nested"] as? String, "foo")
    }

    func testUpdatesOfNestedFieldsArraysAndTimestamps() async throws {
        let frankDocRef = db.collection("users").document("frank")
        try await frankDocRef.setData([
            "name": "Frank",
            "favorites": ["food": "Pizza", "color": "Blue", "subject": "recess"],
            "age": 12,
        ])
        try await db.collection("users").document("frank").updateData([
            "age": 13,
            "favorites.color": "Red",
            "regions": FieldValue.arrayUnion(["greater_virginia"]),
            "lastUpdated": FieldValue.serverTimestamp(),
        ])
        let data = try await fields("users/frank")
        XCTAssertEqual(data["age"] as? Int, 13)
        XCTAssertEqual((data["favorites"] as? [String: Any])?["color"] as? String, "Red")
        XCTAssertEqual((data["favorites"] as? [String: Any])?["food"] as? String, "Pizza")
        XCTAssertEqual((data["regions"] as? [Any])?.first as? String, "greater_virginia")
        XCTAssertNotNil(data["lastUpdated"] as? Timestamp)

        let deleted = expectation(description: "deleted")
        db.collection("users").document("frank").updateData(["age": FieldValue.delete()]) { err in
            XCTAssertNil(err)
            deleted.fulfill()
        }
        await fulfillment(of: [deleted], timeout: 30)
        let value2 = try await fields("users/frank")["age"]
        XCTAssertNil(value2)
    }

    func testTheDocsErrorHandling() async throws {
        do {
            try await db.collection("cities").document("nowhere").updateData(["capital": true])
            XCTFail("updateData of a missing document succeeded")
        } catch {
            let nsError = error as NSError
            XCTAssertEqual(nsError.domain, FirestoreErrorDomain)
            XCTAssertEqual(nsError.code, FirestoreErrorCode.notFound.rawValue)
            XCTAssertEqual(FirestoreErrorCode.Code(rawValue: nsError.code), .notFound)
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.notFound.rawValue)
            XCTAssertTrue(error.localizedDescription.contains("cities/nowhere"), error.localizedDescription)
        }
    }

    func testTheDocsWriteBatch() async throws {
        try await db.collection("cities").document("SF").setData(["population": 860_000])
        try await db.collection("cities").document("LA").setData(["population": 3_900_000])

        let batch = db.batch()
        let nycRef = db.collection("cities").document("NYC")
        batch.setData([:], forDocument: nycRef)
        let sfRef = db.collection("cities").document("SF")
        batch.updateData(["population": 1_000_000], forDocument: sfRef)
        let laRef = db.collection("cities").document("LA")
        batch.deleteDocument(laRef)
        let committed = expectation(description: "committed")
        batch.commit { err in
            XCTAssertNil(err)
            committed.fulfill()
        }
        await fulfillment(of: [committed], timeout: 30)
        let value3 = try await nycRef.getDocument().exists
        XCTAssertTrue(value3)
        let value4 = try await fields("cities/SF")["population"] as? Int
        XCTAssertEqual(value4, 1_000_000)
        let value5 = try await laRef.getDocument().exists
        XCTAssertFalse(value5)
    }

    func testTheDocsTransaction() async throws {
        let sfReference = db.collection("cities").document("SF")
        try await sfReference.setData(["population": 860_000])
        do {
            let _ = try await db.runTransaction({ (transaction, errorPointer) -> Any? in
                let sfDocument: DocumentSnapshot
                do {
                    try sfDocument = transaction.getDocument(sfReference)
                } catch let fetchError as NSError {
                    errorPointer?.pointee = fetchError
                    return nil
                }
                guard let oldPopulation = sfDocument.data()?["population"] as? Int else {
                    let error = NSError(domain: "AppErrorDomain", code: -1, userInfo: [
                        NSLocalizedDescriptionKey: "Unable to retrieve population from snapshot \(sfDocument)",
                    ])
                    errorPointer?.pointee = error
                    return nil
                }
                transaction.updateData(["population": oldPopulation + 1], forDocument: sfReference)
                return nil
            })
        } catch {
            XCTFail("Transaction failed: \(error)")
        }
        let value6 = try await fields("cities/SF")["population"] as? Int
        XCTAssertEqual(value6, 860_001)
    }

    func testATransactionWhoseBlockFailsWritesNothing() async throws {
        let reference = db.collection("cities").document("SF")
        try await reference.setData(["population": 1])
        do {
            _ = try await db.runTransaction { transaction, errorPointer in
                transaction.updateData(["population": 2], forDocument: reference)
                errorPointer?.pointee = NSError(domain: "AppErrorDomain", code: 7)
                return nil
            }
            XCTFail("the transaction succeeded")
        } catch {
            XCTAssertEqual((error as NSError).domain, "AppErrorDomain")
            XCTAssertEqual((error as NSError).code, 7)
        }
        let value7 = try await fields("cities/SF")["population"] as? Int
        XCTAssertEqual(value7, 1)
    }

    func testTheDocsSettingsCode() throws {
        let settings = FirestoreSettings()
        settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings())
        settings.cacheSettings = PersistentCacheSettings(sizeBytes: 100 * 1024 * 1024 as NSNumber)
        settings.dispatchQueue = store.callbackQueue
        db.settings = settings
        XCTAssertTrue(db.settings.dispatchQueue === store.callbackQueue)
        db.settings.pollingInterval = 9  // a copy, as in Firebase: the store keeps its own
        XCTAssertNotEqual(db.settings.pollingInterval, 9)
    }

    func testNetworkAndLifecycleCalls() async throws {
        try await db.disableNetwork()
        try await db.collection("c").document("d").setData(["offline": true])
        try await db.enableNetwork()
        try await db.waitForPendingWrites()
        let value8 = try await fields("c/d")["offline"] as? Bool
        XCTAssertEqual(value8, true)
        try await db.clearPersistence()
        let value9 = try await fields("c/d")["offline"] as? Bool
        XCTAssertEqual(value9, true, "clearPersistence never deletes the data")
        try await db.terminate()
        do {
            try await db.collection("c").document("d").setData(["after": true])
            XCTFail("a write after terminate succeeded")
        } catch {
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.failedPrecondition.rawValue)
        }
    }

    /// A view model on the main actor, as SwiftUI code holds one: its state goes into the async
    /// forms without a Sendable error, and Firebase's error patterns match.
    @MainActor
    func testAsyncFormsFromTheMainActor() async throws {
        let model = MainActorModel(db: db)
        try await model.save()
        let book = try await model.load()
        XCTAssertEqual(book?["title"] as? String, "Dune")
        do {
            try await db.document("books/nowhere").updateData(["title": "x"])
            XCTFail("updateData of a missing document succeeded")
        } catch FirestoreErrorCode.notFound {
            // as Firebase's bridged error matches
        }
    }
}

@MainActor
private final class MainActorModel {
    let db: Firestore
    var fields: [String: Any] = ["title": "Dune", "pages": 412]
    init(db: Firestore) { self.db = db }

    func save() async throws {
        try await db.collection("books").document("dune").setData(fields)
        try await db.collection("books").document("dune").setData(fields, merge: true)
        try await db.collection("books").document("dune").updateData(["pages": 413])
        let batch = db.batch()
        batch.setData(fields, forDocument: db.collection("books").document("copy"))
        try await batch.commit()
        _ = try await db.runTransaction { transaction, _ in
            transaction.setData(["n": 1], forDocument: self.db.collection("books").document("tx"))
            return nil
        }
    }

    func load() async throws -> [String: Any]? {
        try await db.collection("books").document("dune").getDocument().data()
    }
}

// Firebase's Swift API as Firebase's own compile checks and docs call it, behind a plain
// `import DocumentStore` (no `@testable` anywhere in the target, so a missing `public` fails to
// compile). The same file is built in Swift 5 language mode (FirebaseAPISwift5Tests) and in
// Swift 6 (FirebaseAPISwift6Tests, a link to it), and run on a folder.
import DocumentStore
import Foundation
import XCTest

final class FirebaseAPILanguageModeTests: XCTestCase {
    private var folder: URL!
    private var db: Firestore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("FirebaseAPILanguageModeTests-\(UUID().uuidString)")
        let settings = FirestoreSettings()
        settings.isPersistenceEnabled = true
        settings.cacheSizeBytes = FirestoreCacheSizeUnlimited
        settings.dispatchQueue = DispatchQueue(label: "FirebaseAPILanguageModeTests")
        db = try Firestore(directory: folder, settings: settings)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// Runs `body` with a completion and waits for it.
    private func waiting(_ body: (@escaping () -> Void) -> Void) {
        let done = expectation(description: "completion")
        body { done.fulfill() }
        wait(for: [done], timeout: 10)
    }

    func testReferencesPathsAndQueriesHaveFirebasesNames() {
        var cities = db.collection("cities")
        var city: DocumentReference = cities.document("SF")
        city = db.document("cities/SF")
        cities = city.collection("landmarks/deep/places")
        city = cities.parent!
        XCTAssertEqual(city.path, "cities/SF/landmarks/deep")
        let query: Query = db.collection("cities").whereField(FieldPath(["name"]), isEqualTo: "SF")
            .whereField("population", isGreaterThanOrEqualTo: 1)
            .whereField("tags", arrayContains: "coast")
            .whereField(FieldPath(["tags"]), arrayContainsAny: ["coast", "hills"])
            .whereField("state", in: ["CA", "WA"])
            .whereField(FieldPath(["state"]), notIn: ["NY"])
            .whereField(FieldPath.documentID(), isNotEqualTo: "LA")
            .order(by: FieldPath(["population"]))
            .order(by: "name", descending: true)
            .limit(to: 10)
            .limit(toLast: 10)
        XCTAssertTrue(query.firestore === db)
        let _: Query = db.collectionGroup("landmarks").whereFilter(Filter.orFilter([
            Filter.whereField("type", isEqualTo: "museum"), Filter.whereField("height", isGreaterOrEqualTo: 100),
        ]))
    }

    func testWritesWithSentinelsBatchesAndCompletionsAsTheDocsWriteThem() throws {
        let city = db.collection("cities").document("SF")
        waiting { done in
            city.setData(["name": "San Francisco", "tags": ["coast"], "pop": 1] as [String: Any]) { error in
                XCTAssertNil(error)
                done()
            }
        }
        let update = [
            "pop": FieldValue.increment(Int64(2)),
            FieldPath(["seen"]): FieldValue.serverTimestamp(),
            "tags": FieldValue.arrayUnion(["hills"]),
            "gone": FieldValue.delete(),
        ] as [AnyHashable: Any]
        waiting { done in
            city.updateData(update) { error in
                XCTAssertNil(error)
                done()
            }
        }
        let batch: WriteBatch = db.batch()
        batch.setData(["name": "Los Angeles"], forDocument: db.document("cities/LA"))
        batch.setData(["state": "CA"], forDocument: city, merge: true)
        waiting { done in
            batch.commit { error in
                XCTAssertNil(error)
                done()
            }
        }
        waiting { done in
            city.getDocument(source: FirestoreSource.default) { document, error in
                XCTAssertEqual(document?.get("pop") as? Int, 3)
                XCTAssertEqual(document?["state"] as? String, "CA")
                XCTAssertNotNil(document?.get("seen", serverTimestampBehavior: .previous) as? Timestamp)
                XCTAssertEqual(document?.data(with: .estimate)?["tags"] as? [String], ["coast", "hills"])
                done()
            }
        }
    }

    func testErrorsMatchAsFirebasesDo() {
        waiting { done in
            db.document("cities/missing").updateData(["pop": 1]) { error in
                switch error {
                case FirestoreErrorCode.notFound?: break
                default: XCTFail("not found expected: \(String(describing: error))")
                }
                let nsError = error! as NSError
                XCTAssertEqual(nsError.domain, FirestoreErrorDomain)
                XCTAssertEqual(FirestoreErrorCode.Code(rawValue: nsError.code), .notFound)
                done()
            }
        }
    }

    func testTheDocsTransactionWithItsErrorPointer() {
        db.document("accounts/a").setData(["balance": 10.0])
        waiting { done in
            db.runTransaction({ transaction, errorPointer -> Any? in
                do {
                    let balance = try transaction.getDocument(self.db.document("accounts/a"))["balance"] as? Double ?? 0
                    if balance < 20 {
                        errorPointer?.pointee = NSError(domain: "Bank", code: 1, userInfo: nil)
                        return nil
                    }
                    transaction.updateData(["balance": balance - 20], forDocument: self.db.document("accounts/a"))
                } catch let error as NSError {
                    errorPointer?.pointee = error
                }
                return 0
            }) { result, error in
                XCTAssertNil(result)
                XCTAssertEqual((error as NSError?)?.domain, "Bank")
                done()
            }
        }
    }

    func testListenersAndTheirChangesAsTheDocsReadThem() {
        let seen = expectation(description: "added")
        let listener: ListenerRegistration = db.collection("cities").addSnapshotListener(includeMetadataChanges: true) { snapshot, error in
            guard let snapshot else { return }
            for change in snapshot.documentChanges(includeMetadataChanges: true) {
                switch change.type {
                case .added: if change.document.documentID == "SF" { seen.fulfill() }
                case .modified, .removed: break
                }
            }
            XCTAssertFalse(snapshot.metadata.isFromCache)
        }
        db.document("cities/SF").setData(["name": "San Francisco"])
        wait(for: [seen], timeout: 10)
        listener.remove()
        let inSync = db.addSnapshotsInSyncListener {}
        inSync.remove()
    }

    func testAsyncFormsAsFirebaseImportsThem() async throws {
        try await db.enableNetwork()
        try await db.disableNetwork()
        try await db.waitForPendingWrites()
        let reference = try await db.collection("cities").addDocument(data: ["name": "Oslo"])
        try await reference.setData(["name": "Oslo"], merge: true)
        try await reference.setData([:], mergeFields: [])
        try await reference.updateData(["visited": true])
        try await reference.getDocument(source: FirestoreSource.server)
        try await db.collection("cities").getDocuments(source: .cache)
        try await db.collection("cities").count.getAggregation(source: .server)
        try await db.runTransaction { _, _ in 0 }
        try await db.batch().commit()
        await db.getQuery(named: "none")
        try await reference.delete()
        try await db.terminate()
    }

    func testTheStartUpCallsOfFirebasesAppsExist() {
        let configure: () -> Void = FirebaseApp.configure
        let options = FirebaseOptions(googleAppID: "1:2:ios:3", gcmSenderID: "2")
        options.projectID = "demo-project"
        let configureWithOptions: (FirebaseOptions) -> Void = FirebaseApp.configure(options:)
        let emulator: (Firestore) -> (String, Int) -> Void = Firestore.useEmulator(withHost:port:)
        _ = (configure, configureWithOptions, emulator)
        let settings = db.settings
        settings.host = "127.0.0.1:8080"
        settings.cacheSettings = MemoryCacheSettings()
        settings.isSSLEnabled = false
        XCTAssertEqual(settings.host, "127.0.0.1:8080", "a copy, assigned back before first use in Firebase's apps")
    }
}

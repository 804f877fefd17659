@testable import DocumentStore
import Foundation
import XCTest

/// Firestore's named databases (`Firestore.firestore(app:database:)`): each its own store,
/// never mixed with `(default)`, persistent, and where `shelf serve` keeps it.
final class NamedDatabaseTests: StoreTestCase {
    private func archive(of store: Firestore? = nil) -> Firestore {
        Firestore.firestore(app: (store ?? db).app, database: "archive")
    }

    func testANamedDatabaseHoldsItsOwnDocumentsApartFromTheDefaultOne() async throws {
        try await archive().document("books/dune").setData(["title": "Dune (archived)"])
        try await db.document("books/dune").setData(["title": "Dune"])
        try await db.document("books/emma").setData(["title": "Emma"])

        let archived = try await archive().collection("books").getDocuments()
        XCTAssertEqual(archived.documents.map(\.documentID), ["dune"])
        XCTAssertEqual(archived.documents.first?.get("title") as? String, "Dune (archived)")
        let current = try await db.document("books/dune").getDocument()
        XCTAssertEqual(current.get("title") as? String, "Dune")
        let all = try await db.collection("books").getDocuments()
        XCTAssertEqual(all.count, 2)
    }

    func testAnAppGivesTheSameStoreForADatabaseEachTime() {
        XCTAssertTrue(archive() === archive())
        XCTAssertTrue(Firestore.firestore(app: db.app) === db)
        XCTAssertTrue(Firestore.firestore(app: db.app, database: "(default)") === db)
        XCTAssertTrue(archive().app === db.app)
        XCTAssertFalse(archive() === Firestore.firestore(app: db.app, database: "drafts"))
    }

    func testANamedDatabaseKeepsItsDocumentsForTheNextProgramThatOpensIt() async throws {
        try await archive().document("books/dune").setData(["title": "Dune"])
        try await archive().terminate()

        let another = try store.openAnother()
        let read = try await archive(of: another).document("books/dune").getDocument()
        XCTAssertEqual(read.get("title") as? String, "Dune")
        let inDefault = try await another.document("books/dune").getDocument()
        XCTAssertFalse(inDefault.exists)
    }

    func testATerminatedDatabaseIsOpenedAnewWhenAskedForAgain() async throws {
        let first = archive()
        try await first.terminate()
        let second = archive()
        XCTAssertFalse(first === second)
        try await second.document("books/dune").setData(["title": "Dune"])
        let written = try await second.document("books/dune").getDocument()
        XCTAssertTrue(written.exists)
    }

    func testANamedDatabaseLivesWhereShelfServeKeepsIt() async throws {
        try await archive().document("books/dune").setData(["title": "Dune"])
        #if SHELF_POSTGRES_TESTS
        let rows = try PostgresCluster.shared().psql("SELECT path FROM shelf_documents", database: store.database! + "__archive")
        XCTAssertEqual(rows.trimmingCharacters(in: .whitespacesAndNewlines), "books/dune")
        #else
        let file = store.path("__databases__/archive/books/dune.json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), "no file at \(file)")
        #endif
        let collections = try db.listCollections().map(\.collectionID)
        XCTAssertEqual(collections, [], "the named databases showed as a collection of (default)")
    }

    func testADatabaseNameFirestoreRefusesFailsEveryCallSayingWhy() async throws {
        let bad = Firestore.firestore(app: db.app, database: "Not_A_Name")
        let read = await thrownError { _ = try await bad.document("books/dune").getDocument() } as NSError?
        XCTAssertEqual(read?.domain, FirestoreErrorDomain)
        XCTAssertEqual(read?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(read?.localizedDescription.contains("database \"Not_A_Name\"") == true, read?.localizedDescription ?? "")
        let write = await thrownError { try await bad.document("books/dune").setData(["title": "Dune"]) } as NSError?
        XCTAssertEqual(write?.code, FirestoreErrorCode.invalidArgument.rawValue)
        let query = await thrownError { _ = try await bad.collection("books").getDocuments() } as NSError?
        XCTAssertEqual(query?.code, FirestoreErrorCode.invalidArgument.rawValue)
        #if !SHELF_POSTGRES_TESTS
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path("__databases__/Not_A_Name")))
        #endif
    }

    func testAListenerOnARefusedDatabaseIsToldWhy() throws {
        let bad = Firestore.firestore(app: db.app, database: "x")
        let told = expectation(description: "the listener's error")
        let registration = bad.collection("books").addSnapshotListener { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.invalidArgument.rawValue)
            told.fulfill()
        }
        track(registration)
        wait(for: [told], timeout: 10)
    }

    func testFirestoreDatabaseIsANamedDatabaseOfTheConfiguredDefaultApp() async throws {
        let location = store.location.hasPrefix("/") ? URL(fileURLWithPath: store.location) : URL(string: store.location)
        let configured = try Firestore.configure(url: try XCTUnwrap(location))
        let app = try XCTUnwrap(FirebaseApp.app())
        XCTAssertEqual(app.name, FirebaseApp.defaultAppName)
        XCTAssertTrue(Firestore.firestore().app === app)
        XCTAssertTrue(Firestore.firestore(app: app) === Firestore.firestore())
        XCTAssertTrue(Firestore.firestore(database: "archive") === Firestore.firestore(app: app, database: "archive"))

        try await Firestore.firestore(database: "archive").document("books/dune").setData(["title": "Dune"])
        let besides = try await archive().document("books/dune").getDocument()
        XCTAssertTrue(besides.exists, "the default app's archive is not the one beside the same store")
        try await Firestore.firestore(database: "archive").terminate()
        try await configured.terminate()
    }

    func testFirestoreAfterTerminateIsANewStoreOnTheSamePlace() async throws {
        let location = store.location.hasPrefix("/") ? URL(fileURLWithPath: store.location) : URL(string: store.location)
        let configured = try Firestore.configure(url: try XCTUnwrap(location))
        XCTAssertTrue(Firestore.firestore() === configured)
        try await configured.document("books/dune").setData(["title": "Dune"])
        try await configured.terminate()

        let reopened = Firestore.firestore()
        XCTAssertFalse(reopened === configured)
        let read = try await reopened.document("books/dune").getDocument()
        XCTAssertEqual(read.get("title") as? String, "Dune")
        try await reopened.terminate()
    }
}

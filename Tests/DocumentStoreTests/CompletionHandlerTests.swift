@testable import DocumentStore
import Foundation
import XCTest

/// The Firestore-style completion handlers: each runs once, on the store's callback queue
/// (`FirestoreSettings.dispatchQueue`), with the result or the error.
final class CompletionHandlerTests: StoreTestCase {
    private let queueKey = DispatchSpecificKey<String>()

    override func setUpWithError() throws {
        try super.setUpWithError()
        store.callbackQueue.setSpecific(key: queueKey, value: "callbacks")
        try store.writeFile("books/hitchhiker.json", #"{"title": "H2G2", "numberOfPages": 816}"#)
    }

    private var onCallbackQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == "callbacks" }

    func testGetDocumentAndGetDocuments() {
        let done = expectation(description: "both completions")
        done.expectedFulfillmentCount = 3
        db.document("books/hitchhiker").getDocument { snapshot, error in
            XCTAssertTrue(self.onCallbackQueue)
            XCTAssertNil(error)
            XCTAssertEqual(snapshot?.get("numberOfPages") as? Int, 816)
            done.fulfill()
        }
        db.collection("books").getDocuments { snapshot, error in
            XCTAssertTrue(self.onCallbackQueue)
            XCTAssertNil(error)
            XCTAssertEqual(snapshot?.documents.map(\.documentID), ["hitchhiker"])
            XCTAssertEqual(snapshot?.documentChanges.map(\.type), [.added])
            done.fulfill()
        }
        db.collection("books/hitchhiker").getDocuments { snapshot, error in
            XCTAssertTrue(self.onCallbackQueue)
            XCTAssertNil(snapshot)
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testWritesWithCompletions() throws {
        struct Book: Codable { var title: String }
        let done = expectation(description: "write completions")
        done.expectedFulfillmentCount = 5
        let check: (Error?) -> Void = { error in
            XCTAssertTrue(self.onCallbackQueue)
            XCTAssertNil(error)
            done.fulfill()
        }
        let added = try db.collection("books").addDocument(from: Book(title: "added"), completion: check)
        let addedData = db.collection("books").addDocument(data: ["title": "added data"], completion: check)
        try db.document("books/new").setData(from: Book(title: "new"), completion: check)
        db.document("books/hitchhiker").updateData(["numberOfPages": 42], completion: check)
        db.document("books/gone").delete(completion: check)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(store.readFile("books/\(added.documentID).json"), "{\n  \"title\": \"added\"\n}\n")
        XCTAssertEqual(store.readFile("books/\(addedData.documentID).json"), "{\n  \"title\": \"added data\"\n}\n")
        XCTAssertEqual(store.readFile("books/new.json"), "{\n  \"title\": \"new\"\n}\n")
    }

    func testTheDefaultStoreAndListingCollections() throws {
        let configured = try Firestore.configure(directory: store.root, settings: db.settings)
        XCTAssertTrue(Firestore.firestore() === configured)
        XCTAssertEqual(configured.directory, store.root)
        try db.document("colors/red").write(["name": "red"])
        try db.document("books/hitchhiker/reviews/r1").write(["stars": 5])
        XCTAssertEqual(try configured.listCollections().map(\.path), ["books", "colors"])
        XCTAssertEqual(try db.document("books/hitchhiker").listCollections().map(\.path), ["books/hitchhiker/reviews"])
        XCTAssertFalse(db.isReadOnly)
    }

    func testListDocumentsIncludesMissingDocumentsWithCollectionsInByteOrder() throws {
        try db.document("shelves/b").write(["n": 1])
        try db.document("shelves/Z").write(["n": 2])
        try db.document("shelves/ghost/reviews/r1").write(["stars": 5])  // shelves/ghost itself is missing
        try db.document("shelves/b/reviews/r2").write(["stars": 4])
        XCTAssertEqual(try db.collection("shelves").listDocuments().map(\.path), ["shelves/Z", "shelves/b", "shelves/ghost"])
        XCTAssertEqual(try db.collection("nothing").listDocuments().map(\.path), [])
        XCTAssertThrowsError(try db.collection("a/b/c").document("x").collection("").listDocuments())
    }

    func testListDocumentsWithCollectionsIsOnlyThoseWithCollectionsUnderThem() throws {
        try db.document("shelves/b").write(["n": 1])
        try db.document("shelves/Z").write(["n": 2])
        try db.document("shelves/ghost/reviews/r1").write(["stars": 5])  // shelves/ghost itself is missing
        try db.document("shelves/b/reviews/r2").write(["stars": 4])
        XCTAssertEqual(try db.collection("shelves").listDocumentsWithCollections().map(\.path), ["shelves/b", "shelves/ghost"])
        XCTAssertEqual(try db.collection("nothing").listDocumentsWithCollections().map(\.path), [])
    }

    func testOpeningAStoreOnAFileFails() throws {
        let file = store.scratch.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try Firestore(directory: file)) { error in
            XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.io(path: file.path, operation: "open the data folder", reason: "it is a file, not a folder"))
        }
    }
}

@testable import DocumentStore
import Foundation
import XCTest

/// Point 6: symbolic links never lead a read or a write outside the store's folder: a collection
/// folder or a document's folder that is a link is refused, a document file that is a link is
/// reported as unreadable and never followed.
final class SymbolicLinkTests: StoreTestCase {
    private let secret = #"{"secret": "outside the store"}"#

    override func setUpWithError() throws {
        try super.setUpWithError()
        try secret.write(to: store.outside.appendingPathComponent("x.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: store.path("books"), withIntermediateDirectories: true)
    }

    private func link(_ relative: String, to target: URL) throws {
        try FileManager.default.createSymbolicLink(atPath: store.path(relative), withDestinationPath: target.path)
    }

    private var outsideNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.outside.path)) ?? []).sorted()
    }

    private var linkReason: String { "it is a symbolic link or a file; the store only follows real folders inside itself" }

    func testACollectionFolderThatIsALinkIsRefused() async throws {
        try link("linked", to: store.outside)
        let expected = DocumentStoreError.io(path: store.path("linked"), operation: "open the folder", reason: linkReason)

        let readAll = await thrownError { _ = try await self.db.collection("linked").getDocuments() }
        XCTAssertEqual(readAll as? FirestoreErrorCode, expected)
        let readOne = await thrownError { _ = try await self.db.document("linked/x").getDocument() }
        XCTAssertEqual(readOne as? FirestoreErrorCode, expected)
        for write in [
            { try await self.db.document("linked/x").setData(["hacked": true]) },
            { try await self.db.document("linked/new").setData(["hacked": true]) },
            { try await self.db.document("linked/x").updateData(["hacked": true]) },
            { try await self.db.document("linked/x").delete() },
            { _ = try await self.db.collection("linked").addDocument(data: ["hacked": true]) },
            { try self.db.document("linked/new").write(["hacked": true]) },
            { _ = try self.db.collection("linked").add(["hacked": true]) },
        ] as [() async throws -> Void] {
            let error = await thrownError(write)
            XCTAssertEqual(error as? FirestoreErrorCode, expected)
        }
        XCTAssertEqual(outsideNames, ["x.json"])
        XCTAssertEqual(try String(contentsOf: store.outside.appendingPathComponent("x.json"), encoding: .utf8), secret)
    }

    func testAListenerOnALinkedCollectionGetsTheErrorAndNoDocuments() throws {
        try link("linked", to: store.outside)
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("linked").addSnapshotListener(recorder.listener))
        let error = recorder.error(1)
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.io(path: store.path("linked"), operation: "open the folder", reason: linkReason))
        XCTAssertEqual(recorder.snapshots.count, 0)
    }

    func testADocumentFolderThatIsALinkIsRefusedForSubcollections() async throws {
        try link("books/hitchhiker", to: store.outside)
        let expected = DocumentStoreError.io(path: store.path("books/hitchhiker"), operation: "open the folder", reason: linkReason)
        let write = thrownError { try self.db.document("books/hitchhiker/reviews/r1").write(["hacked": true]) }
        XCTAssertEqual(write as? FirestoreErrorCode, expected)
        let read = await thrownError { _ = try await self.db.collection("books/hitchhiker/reviews").getDocuments() }
        XCTAssertEqual(read as? FirestoreErrorCode, expected)
        XCTAssertEqual(outsideNames, ["x.json"], "no reviews folder was created outside")
        // The link is not a document of "books" either.
        let books = try await db.collection("books").getDocuments()
        XCTAssertEqual(books.ids, [])
    }

    func testADocumentFileThatIsALinkIsUnreadableAndNeverFollowed() async throws {
        try link("books/evil.json", to: store.outside.appendingPathComponent("x.json"))
        try store.writeFile("books/good.json", #"{"title": "Good"}"#)
        let reason = "the file is a symbolic link; the store does not follow links"

        let snapshot = try await db.document("books/evil").getDocument()
        XCTAssertTrue(snapshot.exists)
        XCTAssertNil(snapshot.data())
        XCTAssertEqual(snapshot.readError, .unreadableDocument(path: "books/evil", reason: reason))
        XCTAssertEqual(contextDescription(thrownError { _ = try snapshot.data(as: [String: String].self) }),
                       "document books/evil cannot be read: \(reason)")

        let all = try await db.collection("books").getDocuments()
        XCTAssertEqual(all.ids, ["evil", "good"])
        XCTAssertEqual(all.documents[0].readError, .unreadableDocument(path: "books/evil", reason: reason))
        XCTAssertEqual(all.documents[0].data().count, 0, "nothing read through the link")
        XCTAssertEqual(all.documents[1].get("title") as? String, "Good")

        // Merging writes refuse; a full replace writes a new file in place of the link; delete
        // removes the link. The file outside is never touched.
        let merge = thrownError { try self.db.document("books/evil").write(["hacked": true], merge: true) }
        XCTAssertEqual(merge as? FirestoreErrorCode,
                       .unreadableDocument(path: "books/evil", reason: reason + "; fix the file or replace the whole document"))
        XCTAssertEqual(thrownError { try self.db.document("books/evil").update(["hacked": true]) } as? FirestoreErrorCode,
                       .unreadableDocument(path: "books/evil", reason: reason + "; fix the file or replace the whole document"))
        try await db.document("books/evil").setData(["replaced": true])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path("books/evil.json"))
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular)
        try await db.document("books/evil").delete()
        XCTAssertNil(store.readFile("books/evil.json"))
        XCTAssertEqual(outsideNames, ["x.json"])
        XCTAssertEqual(try String(contentsOf: store.outside.appendingPathComponent("x.json"), encoding: .utf8), secret)
    }

    func testDeletingADocumentThatIsALinkRemovesOnlyTheLink() throws {
        try link("books/evil.json", to: store.outside.appendingPathComponent("x.json"))
        try db.document("books/evil").deleteDocument()
        XCTAssertEqual(store.fileNames(in: "books"), [])
        XCTAssertEqual(outsideNames, ["x.json"])
    }

    func testADocumentLinkInAListenerIsReportedNotFollowed() throws {
        try link("books/evil.json", to: store.outside.appendingPathComponent("x.json"))
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        let first = recorder.snapshot(1)
        XCTAssertEqual(first?.ids, ["evil"])
        XCTAssertNotNil(first?.documents.first?.readError)
        XCTAssertEqual(first?.documents.first?.data().count, 0)
    }
}

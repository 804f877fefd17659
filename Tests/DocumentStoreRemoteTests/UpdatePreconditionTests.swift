@testable import DocumentStore
@testable import DocumentStoreRemote
import Foundation
import XCTest

/// An update sent to a Firestore server carries `current_document { exists: true }`, as
/// Firebase's SDKs send it, so the server itself refuses it when the document is gone.
final class UpdatePreconditionTests: StoreTestCase {
    private var remote: RemoteBackend {
        get throws { try XCTUnwrap(db.backend as? RemoteBackend) }
    }

    private var nope: ResourcePath { ResourcePath(segments: ["books", "nope"]) }

    /// The client made the updated document as if it existed (a read that has since gone
    /// stale); the server, told the document must exist, refuses and makes nothing.
    func testAnUpdateOfADocumentTheServerLacksIsRefusedByTheServerWithNotFound() throws {
        let update = DocumentWrite(path: nope, change: .update([(FieldPath(["title"]), .value(.string("T")))]))
        let staged = [CommitPlan.Planned(path: nope, document: .fields(Fields(["title": .string("T")])), keptTimes: nil)]
        let error = thrownError { _ = try self.remote.send(staged, of: [update], transaction: nil, store: self.db) }
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.notFound.rawValue, "\(String(describing: error))")
        XCTAssertFalse(try db.document("books/nope").readDocument().exists, "nothing was made")
    }

    /// A set first, then an update of the same document: the set makes it, so nothing is required.
    func testAnUpdateAfterASetOfTheSameDocumentInOneBatchNeedsNothingStored() throws {
        let batch = db.batch()
        batch.setData(["title": "T"], forDocument: db.document("books/nope"))
        batch.updateData(["pages": 3], forDocument: db.document("books/nope"))
        try batch.commitNow()
        XCTAssertEqual(try db.document("books/nope").readDocument().get("pages") as? Int, 3)
    }

    func testUpdateDataOfAMissingDocumentFailsWithNotFound() throws {
        let error = thrownError { try self.db.document("books/nope").update(["title": "T"]) }
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.notFound.rawValue)
        XCTAssertFalse(try db.document("books/nope").readDocument().exists)
    }
}

@testable import DocumentStore
import Foundation
import XCTest

/// Point 6: a document is at most 1 MiB (1,048,576 bytes as written): a larger one is refused on
/// write, and a larger file is reported as unreadable on read.
final class DocumentSizeTests: StoreTestCase {
    /// `{\n  "text": "<n characters>"\n}\n` is n + 17 bytes.
    private func text(forFileOf bytes: Int) -> String { String(repeating: "x", count: bytes - 17) }

    func testADocumentOfExactly1MiBIsWritten() throws {
        try db.document("big/fits").write(["text": text(forFileOf: 1_048_576)])
        XCTAssertEqual(store.readBytes("big/fits.json")?.count, 1_048_576)
    }

    func testALargerDocumentIsRefusedAndNothingIsWritten() throws {
        try db.document("big/doc").write(["text": "small"])
        let error = thrownError { try self.db.document("big/doc").write(["text": self.text(forFileOf: 1_048_577)]) }
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.documentTooLarge(path: "big/doc", bytes: 1_048_577))
        XCTAssertEqual(error.map { "\($0)" }, "document big/doc is 1048577 bytes; a document is at most 1 MiB (1048576 bytes)")
        XCTAssertEqual(store.readFile("big/doc.json"), "{\n  \"text\": \"small\"\n}\n", "the old document is kept")
        XCTAssertEqual(store.fileNames(in: "big"), ["doc.json"])

        struct Big: Codable { var text: String }
        let fromModel = thrownError { try self.db.document("big/model").write(Big(text: String(repeating: "y", count: 2_000_000))) }
        XCTAssertEqual(fromModel as? FirestoreErrorCode, DocumentStoreError.documentTooLarge(path: "big/model", bytes: 2_000_017))
        XCTAssertNil(store.readFile("big/model.json"))
    }

    func testAnUpdateThatWouldGrowPastTheLimitIsRefused() throws {
        try db.document("big/grow").write(["text": text(forFileOf: 1_000_000)])
        let error = thrownError { try self.db.document("big/grow").update(["b": String(repeating: "z", count: 100_000)]) }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual((error as? FirestoreErrorCode)?.description.hasPrefix("document big/grow is 1100"), true, "\(String(describing: error))")
        XCTAssertEqual(store.readBytes("big/grow.json")?.count, 1_000_000)
    }

    #if !SHELF_REMOTE_TESTS  // a server sends no unreadable document
    func testAFileOverTheLimitIsReportedAsUnreadable() async throws {
        try store.writeFile("big/huge.json", "{\"text\": \"" + String(repeating: "x", count: 1_100_000) + "\"}")
        try store.writeFile("big/small.json", #"{"text": "fine"}"#)
        let snapshot = try await db.document("big/huge").getDocument()
        XCTAssertTrue(snapshot.exists)
        XCTAssertNil(snapshot.data())
        XCTAssertEqual(snapshot.readError, DocumentStoreError.unreadableDocument(path: "big/huge", reason: "the file is 1100012 bytes; a document is at most 1 MiB"))

        let all = try await db.collection("big").getDocuments()
        XCTAssertEqual(all.ids, ["huge", "small"])
        XCTAssertNotNil(all.documents[0].readError)
        XCTAssertEqual(all.documents[1].get("text") as? String, "fine")
    }
    #endif
}

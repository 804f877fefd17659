@testable import DocumentStore
import Foundation
import XCTest

/// Point 6: a document is at most 1 MiB by Firestore's count (issue 51: bytes were counted at
/// their base64 length): the name's, each field name's and each value's size, and 32 bytes
/// (https://firebase.google.com/docs/firestore/storage-size). A larger one is refused on write,
/// and a larger file is reported as unreadable on read.
final class DocumentSizeTests: StoreTestCase {
    /// Two texts, in the fields `a` and `b` (a value is at most 1,048,487 bytes), that make
    /// `big/<id>` `bytes` in size: the name is 16 + 4 + id + 1, each field name 2, each text
    /// its length + 1, and 32.
    private func fields(forSizeOf bytes: Int, id: String) -> [String: String] {
        let length = bytes - (16 + 4 + id.utf8.count + 1 + 2 + 2 + 1 + 1 + 32)
        return ["a": String(repeating: "x", count: length / 2), "b": String(repeating: "y", count: length - length / 2)]
    }

    func testTheDocumentationsExampleIs147Bytes() throws {
        let fields = Fields(["type": .string("Personal"), "done": .boolean(false), "priority": .integer(1),
                             "description": .string("Learn Cloud Firestore")])
        XCTAssertEqual(StorageSize.name(ResourcePath(segments: ["users", "jeff", "tasks", "my_task_id"])), 44)
        XCTAssertEqual(StorageSize.document(ResourcePath(segments: ["users", "jeff", "tasks", "my_task_id"]), fields), 147)
        XCTAssertEqual(StorageSize.value(.array([.geoPoint(GeoPoint(latitude: 1, longitude: 2)), .null, .double(1),
                                                 .timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .bytes(Data(count: 3))])), 16 + 1 + 8 + 8 + 3)
        XCTAssertEqual(StorageSize.value(.map(Fields(["a": .map(Fields(["bc": .string("é")]))]))), 2 + 3 + 3)
    }

    func testBytesCountByTheirLengthNotTheirBase64() throws {
        let blob = Data((0..<800_000).map { UInt8(truncatingIfNeeded: $0) })
        try db.document("big/blob").write(["b": blob])
        XCTAssertGreaterThan(store.readBytes("big/blob.json")?.count ?? 0, 1_048_576, "base64 in the file, a third longer")
        XCTAssertEqual(try db.document("big/blob").readDocument().get("b") as? Data, blob, "read back whole")

        let error = thrownError { try self.db.document("big/blob").write(["b": Data(count: 1_048_576)]) }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(try db.document("big/blob").readDocument().get("b") as? Data, blob, "the old document is kept")
    }

    /// The emulator's and Firestore's limit of one value (found by the same writes to both).
    func testAStringOrBytesValueIsAtMost1048487Bytes() throws {
        try db.document("big/value").write(["b": Data(count: 1_048_487)])
        let error = thrownError { try self.db.document("big/value").write(["b": Data(count: 1_048_488)]) }
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.invalidValue(
            path: "big/value", field: "b", reason: "the value is 1048488 bytes; a string or bytes value is at most 1048487 bytes"))
        let text = thrownError { try self.db.document("big/text").write(["s": String(repeating: "é", count: 524_244)]) }
        XCTAssertEqual((text as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue, "1,048,488 bytes of UTF-8")
    }

    func testADocumentOfExactly1MiBIsWritten() throws {
        try db.document("big/fits").write(fields(forSizeOf: 1_048_576, id: "fits"))
        XCTAssertEqual(try db.document("big/fits").readDocument().data() as? [String: String], fields(forSizeOf: 1_048_576, id: "fits"))
    }

    func testALargerDocumentIsRefusedAndNothingIsWritten() throws {
        try db.document("big/doc").write(["text": "small"])
        let error = thrownError { try self.db.document("big/doc").write(self.fields(forSizeOf: 1_048_577, id: "doc")) }
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.documentTooLarge(path: "big/doc", bytes: 1_048_577))
        XCTAssertEqual(error.map { "\($0)" }, "document big/doc is 1048577 bytes; a document is at most 1 MiB (1048576 bytes)")
        XCTAssertEqual(store.readFile("big/doc.json"), "{\n  \"text\": \"small\"\n}\n", "the old document is kept")
        XCTAssertEqual(store.fileNames(in: "big"), ["doc.json"])

        struct Big: Codable { var text: String; var more: String }
        let big = Big(text: String(repeating: "y", count: 1_000_000), more: String(repeating: "z", count: 1_000_000))
        let fromModel = thrownError { try self.db.document("big/model").write(big) }
        XCTAssertEqual(fromModel as? FirestoreErrorCode, DocumentStoreError.documentTooLarge(path: "big/model", bytes: 16 + 4 + 6 + 5 + 1_000_001 + 5 + 1_000_001 + 32))
        XCTAssertNil(store.readFile("big/model.json"))
    }

    func testAnUpdateThatWouldGrowPastTheLimitIsRefused() throws {
        try db.document("big/grow").write(fields(forSizeOf: 1_000_000, id: "grow"))
        let error = thrownError { try self.db.document("big/grow").update(["c": String(repeating: "z", count: 100_000)]) }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual((error as? FirestoreErrorCode)?.description.hasPrefix("document big/grow is 1100"), true, "\(String(describing: error))")
        XCTAssertEqual(try db.document("big/grow").readDocument().data() as? [String: String], fields(forSizeOf: 1_000_000, id: "grow"))
    }

    #if !SHELF_REMOTE_TESTS  // a server sends no unreadable document
    func testAFileOverTheLimitIsReportedAsUnreadable() async throws {
        try store.writeFile("big/huge.json", "{\"text\": \"" + String(repeating: "x", count: 1_100_000) + "\"}")
        try store.writeFile("big/file.json", "{\"text\": \"" + String(repeating: "x", count: 9_000_000) + "\"}")
        try store.writeFile("big/small.json", #"{"text": "fine"}"#)
        let snapshot = try await db.document("big/huge").getDocument()
        XCTAssertTrue(snapshot.exists)
        XCTAssertNil(snapshot.data())
        XCTAssertEqual(snapshot.readError, DocumentStoreError.unreadableDocument(
            path: "big/huge", reason: "its fields are 1100038 bytes by Firestore's count; a document is at most 1 MiB (1048576 bytes)"))
        let file = try await db.document("big/file").getDocument()
        XCTAssertEqual(file.readError, DocumentStoreError.unreadableDocument(
            path: "big/file", reason: "the file is 9000012 bytes; a document's file is at most 8388608 bytes"))

    }
    #endif
}

@testable import DocumentStore
import Foundation
import XCTest

/// Point 7: a file that is not valid JSON, not an object, or not UTF-8 is that document's error
/// (path and reason); the other documents are still delivered; once fixed it reads normally;
/// merging writes never overwrite it.
final class UnreadableFileTests: StoreTestCase {
    struct Color: Codable, Equatable {
        @DocumentID var id: String?
        var name: String
        var color: String
    }

    /// Each bad file's bytes and the reason the store gives for it.
    private let badFiles: [(id: String, bytes: [UInt8], reason: String)] = [
        ("truncated", Array(#"{"name": "#.utf8), "not valid JSON: line 1, column 10: unexpected end of file"),
        ("trailing-comma", Array("{\n  \"name\": \"Cerise\",\n}\n".utf8), "not valid JSON: line 3, column 1: expected a field name in double quotes, found '}'"),
        ("array", Array("[1, 2]".utf8), "the file holds an array of 2 items, not a JSON object of fields"),
        ("string", Array(#""just text""#.utf8), #"the file holds the string "just text", not a JSON object of fields"#),
        ("empty", [], "not valid JSON: line 1, column 1: the file is empty"),
        ("latin1", Array(#"{"name": "Caf"#.utf8) + [0xE9] + Array(##"", "color": "#d52c67"}"##.utf8),
         "not valid JSON: line 1, column 10: the text is not valid UTF-8"),
        ("binary", [0xFF, 0xFE, 0x00, 0x7B], "not valid JSON: line 1, column 1: expected a value, found byte 0xFF"),
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try store.writeFile("colors/good.json", ##"{"name": "Carmine Pink", "color": "#f05138"}"##)
        for file in badFiles { try store.writeFile("colors/\(file.id).json", bytes: file.bytes) }
    }

    func testGetDocumentReportsThePathAndTheReason() async throws {
        for file in badFiles {
            let snapshot = try await db.document("colors/\(file.id)").getDocument()
            XCTAssertTrue(snapshot.exists, file.id)
            XCTAssertNil(snapshot.data(), file.id)
            XCTAssertEqual(snapshot.readError, .unreadableDocument(path: "colors/\(file.id)", reason: file.reason))
            XCTAssertEqual(snapshot.readError.map { "\($0)" }, "document colors/\(file.id) cannot be read: \(file.reason)")

            let error = thrownError { _ = try snapshot.data(as: Color.self) }
            XCTAssertEqual(decodingCase(error), "dataCorrupted", file.id)
            XCTAssertEqual(contextDescription(error), "document colors/\(file.id) cannot be read: \(file.reason)")

            let asOptional = thrownError { _ = try snapshot.data(as: Color?.self) }
            XCTAssertEqual(decodingCase(asOptional), "dataCorrupted", "an unreadable file is not a missing one")
        }
    }

    func testGetDocumentAsTypeFailsWithDataCorrupted() async throws {
        let error = await thrownError { _ = try await self.db.document("colors/array").getDocument(as: Color.self) }
        guard case DecodingError.dataCorrupted(let context)? = error else { return XCTFail("expected dataCorrupted, got \(String(describing: error))") }
        XCTAssertEqual(context.debugDescription, "document colors/array cannot be read: the file holds an array of 2 items, not a JSON object of fields")
    }

    func testGetDocumentsDeliversTheOtherDocuments() async throws {
        let snapshot = try await db.collection("colors").getDocuments()
        XCTAssertEqual(snapshot.ids, ["array", "binary", "empty", "good", "latin1", "string", "trailing-comma", "truncated"])
        let decoded = snapshot.documents.compactMap { try? $0.data(as: Color.self) }
        XCTAssertEqual(decoded, [Color(id: "good", name: "Carmine Pink", color: "#f05138")])
        let unreadable = snapshot.documents.filter { $0.readError != nil }.map(\.documentID)
        XCTAssertEqual(unreadable, ["array", "binary", "empty", "latin1", "string", "trailing-comma", "truncated"])
    }

    func testAListenerDeliversTheOthersAndTheFixedFile() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("colors").addSnapshotListener(recorder.listener))
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(first.documents.first { $0.documentID == "good" }?.get("name") as? String, "Carmine Pink")
        XCTAssertEqual(first.documents.filter { $0.readError == nil }.map(\.documentID), ["good"])

        try store.writeFile("colors/latin1.json", ##"{"name": "Café", "color": "#d52c67"}"##)
        let fixed = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(fixed.changes, [Change(.modified, "latin1", 4, 4)])
        let document = try XCTUnwrap(fixed.documentChanges.first?.document)
        XCTAssertNil(document.readError)
        XCTAssertEqual(try document.data(as: Color.self), Color(id: "latin1", name: "Café", color: "#d52c67"))

        // Broken again by an in-place edit: delivered as modified, with the error.
        try store.overwriteInPlace("colors/latin1.json", with: "[")
        let broken = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(broken.changes, [Change(.modified, "latin1", 4, 4)])
        XCTAssertNotNil(broken.documentChanges.first?.document.readError)
    }

    func testADocumentListenerSeesTheErrorThenTheFix() throws {
        let recorder = ListenerRecorder<DocumentSnapshot>()
        track(db.document("colors/truncated").addSnapshotListener(recorder.listener))
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertTrue(first.exists)
        XCTAssertEqual(first.readError?.description,
                       "document colors/truncated cannot be read: not valid JSON: line 1, column 10: unexpected end of file")
        try store.writeFile("colors/truncated.json", ##"{"name": "Cerise", "color": "#d52c67"}"##)
        let fixed = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertNil(fixed.readError)
        XCTAssertEqual(try fixed.data(as: Color.self), Color(id: "truncated", name: "Cerise", color: "#d52c67"))
    }

    func testMergingWritesRefuseToOverwriteIt() throws {
        for file in badFiles {
            let ref = db.document("colors/\(file.id)")
            let expected = DocumentStoreError.unreadableDocument(
                path: "colors/\(file.id)", reason: file.reason + "; fix the file or replace the whole document")
            XCTAssertEqual(thrownError { try ref.write(["name": "x"], merge: true) } as? FirestoreErrorCode, expected)
            XCTAssertEqual(thrownError { try ref.write(Color(name: "x", color: "#000000"), merge: true) } as? FirestoreErrorCode, expected)
            XCTAssertEqual(thrownError { try ref.update(["name": "x"]) } as? FirestoreErrorCode, expected)
            XCTAssertEqual(store.readBytes("colors/\(file.id).json"), file.bytes, "\(file.id) is untouched")
        }
    }

    func testAFullReplaceOrDeleteIsAskedForAndWorks() async throws {
        try db.document("colors/array").write(Color(name: "Cerise", color: "#d52c67"))
        let read = try await db.document("colors/array").getDocument(as: Color.self)
        XCTAssertEqual(read, Color(id: "array", name: "Cerise", color: "#d52c67"))
        try await db.document("colors/binary").delete()
        XCTAssertNil(store.readFile("colors/binary.json"))
    }

    func testANamedPipeIsReportedAndNeverWaitedOn() async throws {
        XCTAssertEqual(mkfifo(store.path("colors/pipe.json"), 0o644), 0)
        let snapshot = try await db.document("colors/pipe").getDocument()
        XCTAssertEqual(snapshot.readError, .unreadableDocument(path: "colors/pipe", reason: "it is not a regular file"))
        let all = try await db.collection("colors").getDocuments()
        XCTAssertEqual(all.documents.first { $0.documentID == "pipe" }?.readError?.description,
                       "document colors/pipe cannot be read: it is not a regular file")
    }

    func testTooDeeplyNestedJSONIsAnErrorNotACrash() async throws {
        try store.writeFile("colors/deep.json", "{\"a\": " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}")
        let snapshot = try await db.document("colors/deep").getDocument()
        XCTAssertEqual(snapshot.readError?.description, "document colors/deep cannot be read: not valid JSON: line 1, column 106: nested deeper than 100 levels")
    }
}

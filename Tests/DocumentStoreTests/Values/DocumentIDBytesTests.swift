@testable import DocumentStore
import Foundation
import XCTest

/// An id is its bytes: documents are told apart by the exact UTF-8 of their ids, as Firestore
/// compares them, never by Swift's `String ==` (which calls "café" precomposed and decomposed
/// equal). A file whose name is not UTF-8 at all is reported, never dropped.
final class DocumentIDBytesTests: StoreTestCase {
    private let precomposed = "caf\u{E9}"  // 63 61 66 C3 A9
    private let decomposed = "cafe\u{301}"  // 63 61 66 65 CC 81
    /// Ids compared as the store must compare them: byte arrays.
    private func bytes(_ ids: [String]) -> [[UInt8]] { ids.map { Array($0.utf8) } }

    private func listen(_ query: Query) -> ListenerRecorder<QuerySnapshot> {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(query.addSnapshotListener(recorder.listener))
        return recorder
    }

    // MARK: Two ids that Swift calls equal

    func testGetDocumentsReturnsAll16Of16() async throws {
        let plain = (1...14).map { "book-\($0 < 10 ? "0" : "")\($0)" }
        for (n, id) in (plain + [precomposed, decomposed]).enumerated() {
            try store.writeFile("ids/\(id).json", #"{"n": \#(n)}"#)
        }
        let documents = try await documents(in: "ids")
        XCTAssertEqual(documents.count, 16)
        XCTAssertEqual(Set(bytes(documents.map(\.documentID))).count, 16)
        let cafes = documents.filter { $0.documentID.hasPrefix("caf") }
        XCTAssertEqual(bytes(cafes.map(\.documentID)), bytes([decomposed, precomposed]), "ordered by bytes: 65 before C3")
        XCTAssertEqual(cafes.map { $0.get("n") as? Int }, [15, 14])
    }

    func testWritesThroughTheStoreMakeTwoFilesAndReadBackApart() async throws {
        let books = db.collection("ids")
        try books.document(precomposed).set(["which": "precomposed"])
        try books.document(decomposed).set(["which": "decomposed"])
        XCTAssertEqual(Set(bytes(store.fileNames(in: "ids"))), Set(bytes([decomposed + ".json", precomposed + ".json"])))
        let one = try await books.document(precomposed).getDocument()
        let two = try await books.document(decomposed).getDocument()
        XCTAssertEqual(one.get("which") as? String, "precomposed")
        XCTAssertEqual(two.get("which") as? String, "decomposed")
        try books.document(decomposed).deleteDocument()
        XCTAssertEqual(bytes(store.fileNames(in: "ids")), bytes([precomposed + ".json"]))
    }

    func testReferencesAndPathsCompareAndHashByBytes() {
        let a = db.collection("ids").document(precomposed)
        let b = db.collection("ids").document(decomposed)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(a, db.document("ids/" + precomposed))
        XCTAssertEqual(Set([a, b, db.document("ids/" + decomposed)]).count, 2)
        XCTAssertNotEqual(a.resourcePath, b.resourcePath)
        XCTAssertEqual(Set([a.resourcePath, b.resourcePath]).count, 2)
        XCTAssertNotEqual(ExactID(precomposed), ExactID(decomposed))
        XCTAssertEqual(Set([ExactID(precomposed), ExactID(decomposed), ExactID(precomposed)]).count, 2)
        // Three spellings of "Å": U+00C5, A + U+030A, and U+212B ANGSTROM SIGN.
        let angstroms = ["\u{C5}", "A\u{30A}", "\u{212B}"].map { db.collection("ids").document($0) }
        XCTAssertEqual(Set(angstroms).count, 3)
    }

    func testQueryTiesAndTheDefaultOrderAreByBytes() async throws {
        for id in ["b", precomposed, decomposed, "Z", "\u{212B}", "\u{C5}"] {
            try db.collection("ids").document(id).set(["rank": 1])
        }
        let expected = bytes(["Z", "b", decomposed, precomposed, "\u{C5}", "\u{212B}"])
        let all = try await documents(in: "ids")
        XCTAssertEqual(bytes(all.map(\.documentID)), expected)
        let tied = try await db.collection("ids").order(by: "rank").getDocuments()
        XCTAssertEqual(bytes(tied.documents.map(\.documentID)), expected)
        let limited = try await db.collection("ids").order(by: "rank", descending: true).limit(to: 4).getDocuments()
        // Ties break by id in the direction of the last order, as in Firestore.
        XCTAssertEqual(bytes(limited.documents.map(\.documentID)), Array(expected.reversed().prefix(4)))
    }

    func testACollectionListenerKeepsThemApart() throws {
        try store.writeFile("ids/\(precomposed).json", #"{"n": 1}"#)
        try store.writeFile("ids/\(decomposed).json", #"{"n": 2}"#)
        let recorder = listen(db.collection("ids"))
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(bytes(first.ids), bytes([decomposed, precomposed]))
        XCTAssertEqual(first.documentChanges.map(\.type), [.added, .added])

        try store.writeFile("ids/\(precomposed).json", #"{"n": 10}"#)
        let modified = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(modified.documentChanges.map(\.type), [.modified])
        XCTAssertEqual(bytes(modified.documentChanges.map(\.document.documentID)), bytes([precomposed]))
        XCTAssertEqual(modified.documentChanges.first?.oldIndex, 1)
        XCTAssertEqual(modified.documents.map { $0.get("n") as? Int }, [2, 10])

        try store.deleteFile("ids/\(decomposed).json")
        let removed = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(removed.documentChanges.map(\.type), [.removed])
        XCTAssertEqual(bytes(removed.documentChanges.map(\.document.documentID)), bytes([decomposed]))
        XCTAssertEqual(bytes(removed.ids), bytes([precomposed]))
    }

    /// A limit makes the listener compare whole result sets by id: keyed by `String`, the two
    /// cafés made that table trap on a duplicate key.
    func testALimitedListenerKeepsThemApartToo() throws {
        try store.writeFile("ids/\(precomposed).json", #"{"n": 1}"#)
        try store.writeFile("ids/\(decomposed).json", #"{"n": 2}"#)
        let recorder = listen(db.collection("ids").order(by: "n").limit(to: 5))
        XCTAssertEqual(bytes(try XCTUnwrap(recorder.snapshot(1)).ids), bytes([precomposed, decomposed]))
        try store.writeFile("ids/\(decomposed).json", #"{"n": 0}"#)
        let moved = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(bytes(moved.ids), bytes([decomposed, precomposed]))
        XCTAssertEqual(moved.documentChanges.map(\.type), [.modified])
        XCTAssertEqual(moved.documentChanges.map { [$0.oldIndex, $0.newIndex] }, [[1, 0]])
    }

    func testDocumentListenersOnEachAreSeparate() throws {
        let one = ListenerRecorder<DocumentSnapshot>()
        let two = ListenerRecorder<DocumentSnapshot>()
        try db.collection("ids").document(precomposed).set(["n": 1])
        try db.collection("ids").document(decomposed).set(["n": 2])
        track(db.collection("ids").document(precomposed).addSnapshotListener(one.listener))
        track(db.collection("ids").document(decomposed).addSnapshotListener(two.listener))
        XCTAssertEqual(one.snapshot(1)?.get("n") as? Int, 1)
        XCTAssertEqual(two.snapshot(1)?.get("n") as? Int, 2)
        XCTAssertEqual(db.activeWatcherCount, 2, "one watcher per document, not one for both")
        try db.collection("ids").document(decomposed).set(["n": 20])
        XCTAssertEqual(two.snapshot(2)?.get("n") as? Int, 20)
        try one.expectNothing("the other café changed, not this one", before: {
            try db.collection("ids").document(precomposed).set(["n": 10])
        }, isProbe: { $0.get("n") as? Int == 10 })
    }

    // MARK: Ids that are bytes on disk

    func testAnIdWithASlashHiddenBehindACombiningMarkIsRefused() {
        let hidden = db.collection("ids").document("a/\u{301}b")
        XCTAssertEqual(storeError { try hidden.set(["x": 1]) }?.description, #"invalid path "ids/a/́b": a document path has an even number of segments (collection/document), this one has 3"#,
                       "the slash is seen in the bytes, so the id is a path below the collection, of the wrong length")
        let climbing = db.document("ids/../\u{301}evil")
        XCTAssertEqual(storeError { try climbing.set(["x": 1]) }?.description, #"invalid path "ids/../́evil": an id cannot be "." or "..""#)
        let hiddenDot = db.collection("ids").document(".\u{301}x")
        XCTAssertEqual(storeError { try hiddenDot.set(["x": 1]) }?.code, FirestoreErrorCode.invalidArgument.rawValue, "a file starting with \".\" would never be listed")
        // Through a server, its own bookkeeping (its lock, the project it serves) is there too.
        XCTAssertEqual(store.fileNames(in: "").filter { $0 != ".shelf" && $0 != "__projects__" }, [])
    }

    // MARK: File names that are not UTF-8

    // A server sends no document it cannot name.
    #if !SHELF_REMOTE_TESTS

    private let latin1 = Array("caf".utf8) + [0xE9]  // "café" in Latin-1

    /// The path of `ids/café.json` with the name in Latin-1, as a C string.
    private var latin1Path: [CChar] {
        (Array(store.path("ids/").utf8) + latin1 + Array(".json".utf8) + [0]).map { CChar(bitPattern: $0) }
    }

    private func writeLatin1File() throws {
        try store.writeFile("ids/ok.json", #"{"n": 1}"#)
        let fd = latin1Path.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0, String(cString: strerror(errno)))
        _ = "{}".withCString { write(fd, $0, 2) }
        close(fd)
    }

    /// The names in a folder as bytes, from readdir (Foundation's listing has to decode them).
    private func rawNames(in relative: String) -> [[UInt8]] {
        guard let dir = opendir(store.path(relative)) else { return [] }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    private let latin1Reason = #"the file name "caf\xE9.json" is not valid UTF-8 (the bytes that are not are shown as \xHH); "#
        + "the store cannot name this document: rename the file to a UTF-8 name"

    func testAFileNameThatIsNotUTF8IsADocumentThatCannotBeRead() async throws {
        try writeLatin1File()
        let documents = try await documents(in: "ids")
        XCTAssertEqual(documents.map(\.documentID), [#"caf\xE9"#, "ok"])
        let bad = documents[0]
        XCTAssertTrue(bad.exists)
        XCTAssertEqual(bad.data().count, 0)
        XCTAssertEqual(bad.readError?.code, FirestoreErrorCode.dataLoss.rawValue)
        XCTAssertEqual(bad.readError?.description, #"document ids/caf\xE9 cannot be read: "# + latin1Reason)
        XCTAssertEqual(documents[1].get("n") as? Int, 1)
    }

    func testCollectionsAreListedByTheirBytesAndAFolderNameThatIsNotUTF8IsLeftOut() throws {
        for name in ["alpha", precomposed, "Zeta", decomposed] {
            try FileManager.default.createDirectory(atPath: store.path(name), withIntermediateDirectories: true)
        }
        var latin1 = Array(store.path("caf").utf8)
        latin1.append(0xE9)
        latin1.append(0)
        XCTAssertEqual(latin1.withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) }, 0)
        XCTAssertEqual(bytes(try db.listCollections().map(\.collectionID)), bytes(["Zeta", "alpha", decomposed, precomposed]))
    }

    func testItsReferenceRefusesEveryOperationSoNoOtherFileIsTouched() async throws {
        try writeLatin1File()
        let bad = try await documents(in: "ids")[0].reference
        let error = storeError { try bad.set(["x": 1]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description, #"invalid path "ids/caf\xE9": "# + latin1Reason)
        XCTAssertEqual(storeError { try bad.deleteDocument() }?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(rawNames(in: "ids").count, 2)
    }

    func testDecodingItFailsWithTheReason() async throws {
        struct Anything: Decodable {}
        try writeLatin1File()
        let bad = try await documents(in: "ids")[0]
        let error = thrownError { _ = try bad.data(as: Anything.self) }
        XCTAssertEqual(contextDescription(error), #"document ids/caf\xE9 cannot be read: "# + latin1Reason)
    }

    func testAValidNameSpelledLikeTheEscapeIsAnotherDocument() async throws {
        try writeLatin1File()
        try store.writeFile(#"ids/caf\xE9.json"#, #"{"n": 2}"#)
        let documents = try await documents(in: "ids")
        XCTAssertEqual(documents.map(\.documentID), [#"caf\xE9"#, #"caf\xE9"#, "ok"])
        XCTAssertEqual(documents.map { $0.readError == nil }, [true, false, true], "the real id first, the undecodable name after it")
        XCTAssertEqual(documents[0].get("n") as? Int, 2)
    }

    func testAnUndecodableNameSortsRightAfterItsLookAlikeAndBeforeAnythingLonger() {
        let undecodable = ExactID(undecodableFileName: #"caf\xE9"#)
        let ids = [ExactID(#"caf\xE9!"#), undecodable, ExactID(#"caf\xE9"#), ExactID(#"caf\xE"#)].sorted()
        XCTAssertEqual(ids.map(\.text), [#"caf\xE"#, #"caf\xE9"#, #"caf\xE9"#, #"caf\xE9!"#])
        XCTAssertEqual(ids.map(\.isUndecodableFileName), [false, false, true, false])
        XCTAssertNotEqual(undecodable, ExactID(#"caf\xE9"#))
        XCTAssertNotEqual(undecodable.hashValue, ExactID(#"caf\xE9"#).hashValue)
    }

    func testAListenerReportsItAndSeesItRenamed() throws {
        try writeLatin1File()
        let recorder = listen(db.collection("ids"))
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(first.ids, [#"caf\xE9"#, "ok"])
        XCTAssertEqual(first.documents[0].readError?.description, #"document ids/caf\xE9 cannot be read: "# + latin1Reason)
        XCTAssertEqual(latin1Path.withUnsafeBufferPointer { rename($0.baseAddress!, store.path("ids/\(precomposed).json")) }, 0)
        let renamed = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(renamed.changes.map(\.description), [#"removed caf\xE9 0->-"#, "added \(precomposed) -->0"])
        XCTAssertEqual(bytes(renamed.ids), bytes([precomposed, "ok"]))
        XCTAssertNil(renamed.documents[0].readError)
    }

    func testEscapingShowsEveryByteThatIsNotUTF8() {
        XCTAssertEqual(DocumentFileName.escaped(Array("a\\b".utf8)), #"a\\b"#)
        XCTAssertEqual(DocumentFileName.escaped([0x61, 0xC3, 0xA9, 0xFF, 0xC3, 0x28, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80]),
                       #"aé\xFF\xC3(😀\xED\xA0\x80"#)
    }
    #endif
}

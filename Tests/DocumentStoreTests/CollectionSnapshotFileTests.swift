@testable import DocumentStore
import Foundation
import XCTest

/// A large collection folder keeps a snapshot file of its documents (`CollectionSnapshotFile`),
/// which a later first read takes each unchanged document from instead of opening its file; a
/// document whose file changed in any way, a damaged snapshot, another folder's snapshot are
/// never trusted; a file changed within the racy window is not kept; writes fail quietly.
final class CollectionSnapshotFileTests: XCTestCase {
    private var scratch: URL!
    private var root: URL { scratch.appendingPathComponent("data") }
    private var books: URL { root.appendingPathComponent("books") }
    private var snapshots: URL { scratch.appendingPathComponent("cache") }
    /// Fewer than a first listing's first chunk, so no file is read before the listing
    /// (`readHead`), and more than are read one by one.
    private let count = 1_000

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("CollectionSnapshotFileTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        // Ids of both kinds, so the snapshot's order is Firestore's: numeric ids first.
        for index in 0..<count {
            let id = index % 10 == 0 ? "__id\(index - 500)__" : String(format: "b%05d", index)
            try Data(#"{"n": \#(index), "title": "Book \#(index)", "tags": ["a", "b"]}"#.utf8).write(to: books.appendingPathComponent(id + ".json"))
        }
        // Past the racy window: files changed within it are not kept.
        Thread.sleep(forTimeInterval: CollectionFolderChanges.racyWindow + 0.1)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: scratch)
        super.tearDown()
    }

    private func settings(_ change: (FirestoreSettings) -> Void = { _ in }) -> FirestoreSettings {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "CollectionSnapshotFileTests")
        settings.snapshotFolder = snapshots
        settings.snapshotMinimum = 500
        change(settings)
        return settings
    }

    /// Opens the folder as a new program would, reads the collection with a listener's first
    /// read, and tells its documents (id and `n`) and how many files it opened.
    private func firstRead(_ settings: FirestoreSettings? = nil) throws -> (documents: [String: Int], filesOpened: Int) {
        let db = try Firestore(directory: root, settings: settings ?? self.settings())
        let first = expectation(description: "first snapshot")
        let documents = Locked<[String: Int]>([:])
        let registration = db.collection("books").addSnapshotListener { snapshot, error in
            guard let snapshot else { return XCTFail("\(String(describing: error))") }
            documents.withLock { documents in
                guard documents.isEmpty else { return }
                for document in snapshot.documents { documents[document.documentID] = document.data()["n"] as? Int }
                first.fulfill()
            }
        }
        wait(for: [first], timeout: 30)
        registration.remove()
        return (documents.withLock { $0 }, db.files.filesRead.withLock { $0 })
    }

    private var expected: [String: Int] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ($0 % 10 == 0 ? "__id\($0 - 500)__" : String(format: "b%05d", $0), $0) })
    }

    private func snapshotFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: snapshots, includingPropertiesForKeys: nil)
    }

    func testASecondFirstReadTakesUnchangedDocumentsFromTheSnapshotAndOpensNoneOfTheirFiles() throws {
        let written = try firstRead()
        XCTAssertEqual(written.documents, expected)
        XCTAssertEqual(written.filesOpened, count, "the first read opens every file")
        XCTAssertEqual(try snapshotFiles().count, 1)
        let again = try firstRead()
        XCTAssertEqual(again.documents, expected)
        XCTAssertEqual(again.filesOpened, 0)
    }

    func testAWholeCollectionReadOnceTakesItsDocumentsFromTheSnapshotToo() async throws {
        _ = try firstRead()
        let db = try Firestore(directory: root, settings: settings())
        let read = try await db.collection("books").getDocuments()
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: read.documents.map { ($0.documentID, $0.data()["n"] as? Int) }), expected)
        XCTAssertEqual(db.files.filesRead.withLock { $0 }, 0)
    }

    func testAFileChangedInPlaceIsReadFromItselfEvenWithItsSizeAndModificationTimeKept() throws {
        _ = try firstRead()
        let file = books.appendingPathComponent("b00007.json")
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as! Date
        // The same size, written in place, its modification time put back: only its status
        // change time tells.
        let changed = Data(#"{"n": 9, "title": "Book 7", "tags": ["a", "b"]}"#.utf8)
        XCTAssertEqual(changed.count, try Data(contentsOf: file).count)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: changed)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        let again = try firstRead()
        XCTAssertEqual(again.documents["b00007"], 9)
        XCTAssertEqual(again.filesOpened, 1)
    }

    func testADocumentRemovedOrAddedSinceIsAsTheFolderHasIt() throws {
        _ = try firstRead()
        try FileManager.default.removeItem(at: books.appendingPathComponent("b00999.json"))
        try Data(#"{"n": -1}"#.utf8).write(to: books.appendingPathComponent("new.json"))
        var expected = expected
        expected["b00999"] = nil
        expected["new"] = -1
        let again = try firstRead()
        XCTAssertEqual(again.documents, expected)
        XCTAssertEqual(again.filesOpened, 1, "the new file alone is opened")
    }

    func testADamagedBlockIsNotTrustedAndItsDocumentsAreReadFromTheirFiles() throws {
        _ = try firstRead()
        let file = try XCTUnwrap(try snapshotFiles().first)
        var bytes = try Data(contentsOf: file)
        // The file's first entry: its id's length and id, its stamp, its length, then
        // `{"n": <digits>, …`, whose first digit is changed: a block read without its checksum
        // would give a wrong value.
        let idLength = Int(bytes[0]) | Int(bytes[1]) << 8
        let digit = 2 + idLength + 32 + 4 + #"{"n": "#.utf8.count
        let old = bytes[digit]
        XCTAssert((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(old))
        bytes[digit] = old == UInt8(ascii: "9") ? UInt8(ascii: "8") : old + 1
        try bytes.write(to: file)
        let again = try firstRead()
        XCTAssertEqual(again.documents, expected)
        XCTAssertGreaterThan(again.filesOpened, 0, "the damaged block's documents are read from their files")
        XCTAssertLessThan(again.filesOpened, count, "the other blocks are still used")
    }

    func testASnapshotCutShortOrOfAnotherFolderIsNotUsed() throws {
        _ = try firstRead()
        let file = try XCTUnwrap(try snapshotFiles().first)
        let bytes = try Data(contentsOf: file)
        try bytes.dropLast(3).write(to: file)
        XCTAssertEqual(try firstRead().filesOpened, count)
        // Another folder with the same files, given the first folder's snapshot under its name.
        let whole = try firstRead()
        XCTAssertEqual(whole.filesOpened, 0, "rewritten after the damage")
        let other = scratch.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: books, to: other.appendingPathComponent("books"))
        var st = stat()
        XCTAssertEqual(stat(other.appendingPathComponent("books").path, &st), 0)
        try FileManager.default.copyItem(at: file, to: snapshots.appendingPathComponent(CollectionSnapshotFile.name(of: st)))
        let db = try Firestore(directory: other, settings: settings())
        let first = expectation(description: "first snapshot")
        let registration = db.collection("books").addSnapshotListener { snapshot, _ in if snapshot != nil { first.fulfill() } }
        wait(for: [first], timeout: 30)
        registration.remove()
        XCTAssertEqual(db.files.filesRead.withLock { $0 }, count, "the copied folder's own files are read")
    }

    func testAFooterWithNumbersPastAnyFileIsRefusedWithoutATrap() throws {
        _ = try firstRead()
        let file = try XCTUnwrap(try snapshotFiles().first)
        var bytes = try Data(contentsOf: file)
        // The footer's directory offset, then its length, made the largest numbers there are:
        // their sum would overflow.
        let footer = bytes.count - CollectionSnapshotFile.footerLength
        bytes.replaceSubrange(footer..<(footer + 16), with: repeatElement(UInt8(0xFF), count: 7) + [0x7F] + repeatElement(UInt8(0xFF), count: 7) + [0x7F])
        try bytes.write(to: file)
        let again = try firstRead()
        XCTAssertEqual(again.documents, expected)
        XCTAssertEqual(again.filesOpened, count)
    }

    func testFilesChangedWithinTheRacyWindowAreNotKept() throws {
        try Data(#"{"n": 1}"#.utf8).write(to: books.appendingPathComponent("b00005.json"))
        _ = try firstRead()
        let again = try firstRead()
        XCTAssertEqual(again.documents["b00005"], 1)
        XCTAssertEqual(again.filesOpened, 1, "the file changed just before the first read is read again")
    }

    func testAFolderMostlyChangedSinceGetsAFreshSnapshot() throws {
        _ = try firstRead()
        for index in stride(from: 1, to: count, by: 3) where index % 10 != 0 {
            try Data(#"{"n": \#(-index)}"#.utf8).write(to: books.appendingPathComponent(String(format: "b%05d.json", index)))
        }
        Thread.sleep(forTimeInterval: CollectionFolderChanges.racyWindow + 0.1)
        _ = try firstRead()
        XCTAssertEqual(try snapshotFiles(), [], "a snapshot that missed over a tenth of the documents is removed")
        _ = try firstRead()
        let fresh = try firstRead()
        XCTAssertEqual(fresh.filesOpened, 0)
        XCTAssertEqual(fresh.documents["b00001"], -1)
    }

    func testWritingASnapshotRemovesThoseUnusedForAMonthAndKeepsThoseInUse() throws {
        _ = try firstRead()
        let ours = try XCTUnwrap(try snapshotFiles().first)
        let month = Date(timeIntervalSinceNow: -CollectionSnapshotFile.unusedLifetime - 86_400)
        // Used by every read: its time is brought forward.
        try FileManager.default.setAttributes([.modificationDate: month], ofItemAtPath: ours.path)
        _ = try firstRead()
        let used = try FileManager.default.attributesOfItem(atPath: ours.path)[.modificationDate] as! Date
        XCTAssertGreaterThan(used, Date(timeIntervalSinceNow: -60))
        // Another folder's, unused for a month, one used lately, a dead writer's staged file
        // and a file that is none of these.
        let old = snapshots.appendingPathComponent("fe00-1.snapshot"), recent = snapshots.appendingPathComponent("fe00-2.snapshot")
        let staged = snapshots.appendingPathComponent(".fe00-3.snapshot.99.new"), other = snapshots.appendingPathComponent("notes.txt")
        for file in [old, recent, staged, other] { try Data("x".utf8).write(to: file) }
        for file in [old, staged, other] { try FileManager.default.setAttributes([.modificationDate: month], ofItemAtPath: file.path) }
        try FileManager.default.removeItem(at: ours)  // so the next read writes one
        _ = try firstRead()
        XCTAssertEqual(Set(try snapshotFiles().map(\.lastPathComponent)), [ours.lastPathComponent, recent.lastPathComponent, other.lastPathComponent])
        XCTAssertFalse(FileManager.default.fileExists(atPath: staged.path))
    }

    func testNoSnapshotIsKeptWhereTheSettingsOrTheFileSystemSayTheFilesAreRemote() throws {
        _ = try firstRead(settings { $0.isInotifyEnabled = false })
        XCTAssertFalse(FileManager.default.fileExists(atPath: snapshots.path), "the setting for network file systems")
        let fd = open(books.path, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        // The type as `stat -f` tells it.
        let stat = Process()
        stat.executableURL = URL(fileURLWithPath: "/usr/bin/stat")
        stat.arguments = ["-f", "-c", "%t", books.path]
        let output = Pipe()
        stat.standardOutput = output
        try stat.run()
        stat.waitUntilExit()
        let type = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(CollectionSnapshotFile.fileSystemType(fd).map { String($0, radix: 16) }, type)
        for type: UInt32 in [0x6969, 0xFF53_4D42, 0x6573_5546] { XCTAssertTrue(CollectionSnapshotFile.isNetworkFileSystem(type: type)) }
        for type: UInt32 in [0xEF53, 0x0102_1994, 0x5846_5342] { XCTAssertFalse(CollectionSnapshotFile.isNetworkFileSystem(type: type)) }
    }

    func testMemoryCacheSettingsKeepNoSnapshot() throws {
        _ = try firstRead(settings { $0.cacheSettings = MemoryCacheSettings() })
        XCTAssertFalse(FileManager.default.fileExists(atPath: snapshots.path))
    }

    func testACacheFolderThatCannotBeMadeOnlyCostsTheSnapshot() throws {
        try Data().write(to: snapshots)  // a file where the folder would be
        let read = try firstRead()
        XCTAssertEqual(read.documents, expected)
        XCTAssertEqual(read.filesOpened, count)
    }
}

@testable import DocumentStore
import Foundation
import XCTest

/// The journal on its own, over a bare folder with no store open on it: its replay given a
/// journal file, and a batch committed through it at a given time.
final class FolderJournalTests: XCTestCase {
    private var folder: URL!
    private var root: FolderRoot!
    private var journal: FolderJournal!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folder-journal-\(UUID().uuidString)")
        root = try FolderRoot(folder)
        journal = FolderJournal(root: root, writer: FileWriter(root: root, times: DocumentFileTimes(root: root)))
    }

    override func tearDownWithError() throws {
        (journal, root) = (nil, nil)
        try FileManager.default.removeItem(at: folder)
    }

    private func batch(_ writes: [(String, String?)]) -> CommitJournal {
        CommitJournal(batchID: 0x10ad, entries: writes.map { path, text in
            CommitJournal.Entry(path: ResourcePath(segments: path.split(separator: "/").map(String.init)), bytes: text.map { Array($0.utf8) })
        })
    }

    private func write(_ relative: String, _ text: String) throws {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func text(_ relative: String) -> String? {
        (try? Data(contentsOf: folder.appendingPathComponent(relative))).map { String(decoding: $0, as: UTF8.self) }
    }

    private func names(_ relative: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(relative).path)) ?? []).sorted()
    }

    func testReplayAppliesACommittedJournalFileWithOneBarrier() throws {
        try write("books/a.json", #"{"v": 1}"#)
        try write("books/gone.json", #"{"v": 1}"#)
        let committed = batch([("books/a", #"{"v": 2}"#), ("books/b", #"{"v": 2}"#), ("books/gone", nil), ("new/c", #"{"v": 2}"#)])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".shelf"), withIntermediateDirectories: true)
        try Data(committed.encoded).write(to: folder.appendingPathComponent(".shelf/" + CommitJournal.fileName))
        XCTAssertTrue(journal.hasCommittedJournal)

        try journal.recover()

        XCTAssertFalse(journal.hasJournalFiles, "the journal is removed once applied")
        XCTAssertEqual(names("books"), ["a.json", "b.json"])
        XCTAssertEqual(text("books/a.json"), #"{"v": 2}"#)
        XCTAssertEqual(text("new/c.json"), #"{"v": 2}"#)
        XCTAssertEqual(root.syncs.withLock { $0 }.barriers, 1, "one barrier for the whole batch")
    }

    func testACommitStampsEachFileWithTheCommitsTimeAndLeavesNoJournal() throws {
        let committed = batch([("books/a", #"{"v": 1}"#), ("books/b", #"{"v": 1}"#)])
        let time = Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)
        let lock = try WriteLock(root: root)
        let written = try journal.commit(committed, encoded: committed.encoded, at: time)
        lock.release()

        XCTAssertEqual(written.map(\.times?.updated), [time, time])
        XCTAssertEqual(names("books"), ["a.json", "b.json"], "no temporary file is left")
        XCTAssertEqual(names(".shelf"), ["lock"])
        let fd = try XCTUnwrap(root.openFolder(["books"], create: false))
        defer { close(fd) }
        XCTAssertEqual(DocumentFileTimes.times(of: "b.json", in: fd)?.updated, time, "the file's modification time is the commit's")
    }
}

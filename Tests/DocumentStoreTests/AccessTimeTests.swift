@testable import DocumentStore
import Foundation
import XCTest

/// Reading documents leaves their files' access times alone (O_NOATIME), so a first read of a
/// large collection does not write every file's inode back to disk.
final class AccessTimeTests: StoreTestCase {
    private func accessTime(_ relative: String) -> timespec {
        var st = stat()
        XCTAssertEqual(stat(store.path(relative), &st), 0)
        return st.st_atim
    }

    /// An access time two days before the file's last change: one a read would update.
    private func makeAccessTimeStale(_ relative: String) -> timespec {
        var st = stat()
        XCTAssertEqual(stat(store.path(relative), &st), 0)
        let times = [timespec(tv_sec: st.st_mtim.tv_sec - 2 * 86_400, tv_nsec: 0), st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, store.path(relative), times, 0), 0)
        return times[0]
    }

    func testReadingADocumentOrACollectionKeepsTheAccessTime() async throws {
        for id in ["a", "b"] { try store.writeFile("books/\(id).json", #"{"n": 1}"#) }
        let stale = ["a", "b"].map { makeAccessTimeStale("books/\($0).json") }
        _ = try await db.collection("books").document("a").getDocument()
        _ = try await db.collection("books").getDocuments()
        XCTAssertEqual(accessTime("books/a.json").tv_sec, stale[0].tv_sec)
        XCTAssertEqual(accessTime("books/b.json").tv_sec, stale[1].tv_sec)
        // Without O_NOATIME the same read moves it, or the file system keeps no access times.
        _ = try Data(contentsOf: URL(fileURLWithPath: store.path("books/a.json")))
        try XCTSkipIf(accessTime("books/a.json").tv_sec == stale[0].tv_sec, "this file system does not update access times")
    }
}

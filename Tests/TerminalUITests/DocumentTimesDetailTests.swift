@testable import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// The detail pane ends with the selected document's create and update times, in local time to
/// the second, and follows a write.
@MainActor
final class DocumentTimesDetailTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func localTime(_ seconds: Int64) -> String {
        let format = DateFormatter()
        format.timeZone = .current
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return format.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    func testATimeIsShownInLocalTimeToTheSecondAsADateFormatterShowsIt() async {
        // From 1583 on, where ICU's calendar is Gregorian too (before, it is Julian; Firestore's
        // and the C library's stay Gregorian).
        let seconds: [Int64] = [-12_212_553_600, -2_208_988_800, -1, 0, 59, 951_782_400, 1_000_000_000, 1_700_000_000,
                                1_796_300_740, 4_102_444_799, 253_402_300_799]
        for second in seconds {
            XCTAssertEqual(AppView.localTime(Timestamp(seconds: second, nanoseconds: 999_999_999)), localTime(second), "\(second)")
        }
        XCTAssertEqual(AppView.localTime(Timestamp(seconds: -62_135_596_800, nanoseconds: 0)).count, 19, "the year 1 has four digits")
    }

    func testTheDetailShowsWhenTheDocumentWasCreatedAndLastUpdated() async throws {
        let settings = FirestoreSettings()
        let store = try Firestore(directory: folder, settings: settings)
        let book = store.document("books/dune")
        let times = DocumentTimes(created: Timestamp(seconds: 1_000_000_000, nanoseconds: 900_000_000),
                                  updated: Timestamp(seconds: 1_700_000_000, nanoseconds: 0))
        try store.batch().setData(["title": "Dune", "author": "Frank Herbert", "numberOfPages": 412], forDocument: book, keepingTimes: times).commitNow()
        let app = try await makeApp(store: store, colorMode: .palette256)
        app.showsDocumentTimes = true

        let screen = app.frame(size: Size(width: 80, height: 16)).canvas.lines
        XCTAssertEqual(screen[2...6].map { String($0.suffix(40)) }, [
            "│ Title    Dune                        │",
            "│ Author   Frank Herbert               │",
            "│ Pages    412                         │",
            "│ Created  \(localTime(1_000_000_000))         │",
            "│ Updated  \(localTime(1_700_000_000))         │",
        ])

        try await book.updateData(["numberOfPages": 413])
        try await app.deliver()
        let now = try XCTUnwrap(try store.documentTimes([book.path]).first ?? nil)
        let updated = app.frame(size: Size(width: 80, height: 16)).canvas.lines
        XCTAssertEqual(String(updated[5].suffix(40)), "│ Created  \(localTime(1_000_000_000))         │", "kept")
        XCTAssertEqual(String(updated[6].suffix(40)), "│ Updated  \(localTime(now.updated.seconds))         │", "read again for the new snapshot")
    }

    /// On a server the times are a query: the frame is drawn without them, and the next one,
    /// once they are read, shows them.
    func testTheTimesAreReadAsAnEffectAndShowOnceRead() async throws {
        let store = try Firestore(directory: folder)
        try store.document("books/dune").write(["title": "Dune", "author": "Frank Herbert", "numberOfPages": 412])
        let runner = ManualEffects()
        let app = try await makeApp(store: store, colorMode: .palette256, effects: runner, prepare: { _ in runner.completeStartListing() })
        app.showsDocumentTimes = true
        var redrawn = 0
        app.afterEffect = { _ in redrawn += 1 }

        let before = app.frame(size: Size(width: 80, height: 16)).canvas.lines.joined(separator: "\n")
        XCTAssertFalse(before.contains("Created"), before)
        _ = app.frame(size: Size(width: 80, height: 16))
        XCTAssertEqual(runner.pendingPaths, ["times of books/dune"], "read once, however many frames are drawn meanwhile")
        runner.complete()
        XCTAssertEqual(redrawn, 1, "the app draws again")
        let after = app.frame(size: Size(width: 80, height: 16)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(after.contains("Created") && after.contains("Updated"), after)
        XCTAssertTrue(runner.pending.isEmpty)
    }
}

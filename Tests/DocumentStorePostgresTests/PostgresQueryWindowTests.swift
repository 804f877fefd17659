@testable import DocumentStore
import Foundation
@testable import ShelfModels
import XCTest

/// A list's `QueryWindow` on PostgreSQL reads its pages and counts its positions on the
/// server: what the app holds is the window, never the collection.
@MainActor
final class PostgresQueryWindowTests: PostgresTestCase {
    private let total = 5_000

    private func open() async throws -> QueryWindow {
        try insertBooks(total)
        let window = QueryWindow(db.collection("books").order(by: "n"), pageSize: 50)
        addTeardownBlock { @MainActor in window.stop() }
        window.show(0..<30)
        window.start()
        try await settle(window)
        return window
    }

    private func settle(_ window: QueryWindow, _ what: String = "the window") async throws {
        try await waitFor("\(what) to be read") { window.count != nil && !window.isBusy }
        XCTAssertNil(window.error)
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("waited 10 s for \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func testTheWindowReadsItsPagesAndTheServerCountsAndFollowsOnlyThem() async throws {
        let window = try await open()
        XCTAssertEqual(window.count, total)
        XCTAssertEqual(window.documentsRead, 30 + 50)
        XCTAssertNil(db.activeWatcher(.collection(ResourcePath(segments: ["books"]))), "no watcher reads the whole collection")

        window.show(total - 30..<total)
        try await settle(window, "the end")
        XCTAssertEqual((total - 30..<total).map { window.document(at: $0)?.get("n") as? Int }, Array(total - 30..<total))
        XCTAssertEqual(window.documentsRead, 2 * (30 + 50), "the end and a page above it, nothing between")
        window.show(2000..<2030)
        try await settle(window, "the middle")
        XCTAssertEqual((2000..<2030).map { window.document(at: $0)?.get("n") as? Int }, Array(2000..<2030))
        XCTAssertEqual(window.documentsRead, 2 * (30 + 50) + 30 + 2 * 50, "the middle and a page each side: the server skipped what lies before")
        window.show(total - 30..<total)
        try await settle(window, "the end again")
        let watcher = try XCTUnwrap(db.activeWatcher(.query(db.collection("books").order(by: "n").start(atDocument: window.documents[0]).limit(to: window.documents.count).definition)))
        try await waitFor("the window's watcher to look") { watcher.currentDocuments.count == window.documents.count }

        try await anotherClient().document("books/b04990").updateData(["n": 4990.5])
        try await waitFor("another client's change to show") {
            window.position(of: "b04990").flatMap { window.document(at: $0)?.get("n") as? Double } == 4990.5
        }
        XCTAssertEqual(window.position(of: "b04990"), 4990)
    }

    func testAWindowSaysWhileItsFirstPageWaitsForTheServerToMakeItsOrdersIndex() async throws {
        try insertBooks(500)
        // Another session holds the lock an index build takes, as a build of ten million rows
        // keeps the first page waiting, until the test lets go.
        let holder = try holdTheTable(mode: "SHARE UPDATE EXCLUSIVE", lock: "ShareUpdateExclusiveLock")
        defer { holder.terminate() }
        let window = QueryWindow(db.collection("books").order(by: "n", descending: true), pageSize: 50)
        addTeardownBlock { @MainActor in window.stop() }
        XCTAssertFalse(window.isWaitingForItsOrder)
        window.show(0..<30)
        window.start()
        try await waitFor("the window to say that it waits for the order's index") { window.isWaitingForItsOrder }
        XCTAssertNil(window.document(at: 0), "no rows until the index is made")
        try sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
        try await settle(window)
        XCTAssertFalse(window.isWaitingForItsOrder, "the index made, the rows read")
        XCTAssertEqual(window.document(at: 0)?.get("n") as? Int, 499)
    }
}

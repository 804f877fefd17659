import DocumentStore
import Foundation
@testable import ShelfModels
import XCTest

/// A `QueryWindow` holds the part of a list shown and a page each side, read by cursors from
/// its ends or from the nearer end of the list, whatever the list's size; it follows changes
/// in it and keeps its positions exact. Counts of documents read, not timings.
@MainActor
final class QueryWindowTests: DemoDataTestCase {
    private let total = 1_000
    private let page = 20

    private func open(_ descending: Bool = false) async throws -> QueryWindow {
        for start in stride(from: 0, to: total, by: 500) {
            let batch = db.batch()
            for n in start..<start + 500 { batch.setData(["n": n], forDocument: db.document("numbers/\(String(format: "d%04d", n))")) }
            try await batch.commit()
        }
        let window = QueryWindow(db.collection("numbers").order(by: "n", descending: descending), pageSize: page)
        addTeardownBlock { @MainActor in window.stop() }
        window.show(0..<10)
        window.start()
        try await settle(window)
        return window
    }

    /// Waits until the window holds what `show` asked for, then until its reads stop.
    private func settle(_ window: QueryWindow, _ what: String = "the window", file: StaticString = #filePath, line: UInt = #line) async throws {
        try await waitUntil("\(what) is read", file: file, line: line) { window.count != nil && !window.isBusy }
    }

    private func numbers(_ window: QueryWindow, _ positions: Range<Int>) -> [Int?] {
        positions.map { window.document(at: $0)?.get("n") as? Int }
    }

    func testOpeningReadsTheFirstRowsAndAPageMoreAndCountsTheRest() async throws {
        let window = try await open()
        XCTAssertEqual(window.count, total)
        XCTAssertEqual(numbers(window, 0..<10), Array(0..<10))
        XCTAssertEqual(window.first, 0)
        XCTAssertEqual(window.documentsRead, 10 + page, "the rows shown and a page below them, of \(total)")
        XCTAssertEqual(window.reads, 1)
    }

    /// On a server a count of ten million rows takes seconds of the cores the first rows need.
    func testTheFirstRowsAreReadBeforeTheListIsCounted() async throws {
        let window = try await open()
        window.stop()
        let again = QueryWindow(window.query, pageSize: page)
        addTeardownBlock { @MainActor in again.stop() }
        again.show(0..<10)
        again.start()
        XCTAssertTrue(again.isBusy, "the first rows are on their way")
        XCTAssertEqual(again.countsAsked, 0, "no count while the first rows are on their way")
        try await settle(again)
        XCTAssertEqual(again.countsAsked, 1, "counted once they came")
        XCTAssertEqual(again.count, total)
        XCTAssertEqual(numbers(again, 0..<10), Array(0..<10))
    }

    func testScrollingDownExtendsTheWindowByCursorsAndLetsGoOfRowsFarAbove() async throws {
        let window = try await open()
        for top in stride(from: 10, to: 200, by: 10) {
            window.show(top..<top + 10)
            try await settle(window, "rows from \(top)")
            XCTAssertEqual(numbers(window, top..<top + 10), Array(top..<top + 10))
            XCTAssertLessThanOrEqual(window.documents.count, 10 + 4 * page, "a few pages held at \(top)")
        }
        XCTAssertEqual(window.documentsRead, window.first + window.documents.count, "each row read once, on the way down")
        XCTAssertLessThanOrEqual(window.documentsRead, 200 + 2 * page)
    }

    func testTheEndIsReadFromTheEndAndScrollingUpReadsBeforeTheWindow() async throws {
        let window = try await open()
        let readBefore = window.documentsRead
        window.show(total - 10..<total)
        try await settle(window, "the last rows")
        XCTAssertEqual(numbers(window, total - 10..<total), Array(total - 10..<total))
        XCTAssertEqual(window.documentsRead - readBefore, 10 + page, "the end and a page above it, nothing between")
        XCTAssertNil(window.document(at: 500), "the middle is not read")

        window.show(total - 50..<total - 40)
        try await settle(window, "rows above the end")
        XCTAssertEqual(numbers(window, total - 50..<total - 40), Array(total - 50..<total - 40))
    }

    func testAJumpFarIntoTheListReadsOnlyThePartWantedFromTheNearerEnd() async throws {
        let window = try await open()
        for (top, end) in [(400, "the start"), (700, "the end")] {
            let (read, reads) = (window.documentsRead, window.reads)
            window.show(top..<top + 10)
            try await settle(window, "rows from \(top)")
            XCTAssertEqual(numbers(window, top - page..<top + 10 + page), Array(top - page..<top + 10 + page))
            XCTAssertEqual(window.first, top - page, "counted from \(end)")
            XCTAssertEqual(window.documentsRead - read, 10 + 2 * page, "the rows and a page each side, none skipped to reach them")
            XCTAssertEqual(window.reads - reads, 1)
        }
    }

    /// A change in the window shows, and counts the list again, with the documents above the
    /// window: so one added above it meanwhile moves its positions down.
    func testAChangeInTheWindowShowsAndCountsItsPositionsAgain() async throws {
        let window = try await open()
        window.show(total - 10..<total)
        try await settle(window, "the last rows")

        try await db.document("numbers/aaa").setData(["n": -1])
        try await db.document("numbers/d0995").updateData(["n": 995.5])
        try await waitUntil("the change in the window shows") {
            window.position(of: "d0995").flatMap { window.document(at: $0)?.get("n") as? Double } == 995.5
        }
        try await waitUntil("the window's documents move down one") {
            window.count == total + 1 && window.position(of: "d0980") == 981 && window.position(of: "d0999") == total
        }
    }

    /// Documents deleted past the window tell its listener nothing (the window is unchanged),
    /// so its count is old news; a read that comes back short shows where the list ends
    /// instead of being asked for again and again.
    func testAReadThatComesBackShortEndsTheListThere() async throws {
        let window = try await open()
        XCTAssertEqual(window.count, total)
        for start in stride(from: 30, to: total, by: 500) {
            let batch = db.batch()
            for n in start..<min(start + 500, total) { batch.deleteDocument(db.document("numbers/\(String(format: "d%04d", n))")) }
            try await batch.commit()
        }
        let reads = window.reads
        window.show(25..<35)
        try await settle(window, "the rows past the window")
        XCTAssertEqual(window.count, 30, "the list ends where the read came back short")
        XCTAssertEqual(window.reads - reads, 1, "one read, not one after another")
        XCTAssertEqual(numbers(window, 25..<30), Array(25..<30))
    }

    func testAStoppedWindowFollowsNothing() async throws {
        let window = try await open()
        let probe = QueryWindow(window.query, pageSize: page)
        addTeardownBlock { @MainActor in probe.stop() }
        probe.show(0..<10)
        probe.start()
        try await settle(probe, "the probe window")
        window.stop()
        try await db.document("numbers/d0003").updateData(["n": 3.5])
        // One look tells the listeners in the order they joined, the stopped window's first:
        // once the probe, which joined later, has the change, the stopped window would have too.
        try await waitUntil("the probe window has the change") { probe.document(at: 3)?.get("n") as? Double == 3.5 }
        XCTAssertEqual(window.document(at: 3)?.get("n") as? Int, 3)
    }

    /// A filter typed replaces a list's window at each key: the windows wait their turn to be
    /// counted, and those replaced meanwhile are never counted.
    func testWindowsReplacedWhileACountRunsCountOnlyTheLastOne() async throws {
        let first = try await open()
        let counts = CountQueue()
        var windows: [QueryWindow] = []
        for above in [100, 200, 300, 400] {
            windows.last?.stop()
            let window = QueryWindow(db.collection("numbers").whereField("n", isGreaterThanOrEqualTo: above).order(by: "n"), pageSize: page, counts: counts)
            addTeardownBlock { @MainActor in window.stop() }
            window.show(0..<10)
            window.start()
            windows.append(window)
        }
        let last = try XCTUnwrap(windows.last)
        try await settle(last)
        XCTAssertEqual(last.count, 600)
        XCTAssertEqual(windows.map(\.counted), [0, 0, 0, 1], "the windows stopped before their turn came are not counted")
        XCTAssertEqual(first.counted, 1, "a window of its own counts at once")
    }
}

@testable import DocumentStore
import Foundation
@testable import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// A large collection's rows show as they are read, in the list's order, while the
/// rest loads; the footer says how far, and keys act on what is there. (The store's side, the
/// slices it reports, is `LoadProgressTests`; here a report is handed to the tab as the
/// listener would, so the moment before the first snapshot can be looked at.)
@MainActor
final class RowsWhileLoadingTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try writeNumberedBooks(1...40, ids: .oppositeToTitles)
    }

    private func screen(_ app: AppModel) -> String {
        app.frame(size: Size(width: 100, height: 30)).canvas.lines.joined(separator: "\n")
    }

    func testRowsReadSoFarShowInTitleOrderAndKeysActOnThem() async throws {
        let read = try await Firestore(directory: folder).collection("books").getDocuments().documents
        // Fifteen of the forty, in no order: ids 26...40 are the books 01...15.
        let first = read.filter { $0.documentID >= "id26" }.shuffled()

        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        app.state.lists.sortAtOnceLimit = 10
        app.state.lists.sortSlice = 10
        let tab = try XCTUnwrap(app.tab as? ListTab<WholeCollectionRows<ShelfBook>>)
        XCTAssertFalse(tab.isLoaded)
        tab.source.live.applyProgress(LoadProgress(read: 15, total: 40, documents: first))
        while app.apply(.sortSlice) == .keepRunning {}
        var text = screen(app)
        XCTAssertTrue(text.contains("Loading books… 15 of 40"), "the footer says how far:\n\(text)")
        let shown = (1...15).map { String(format: "Book %02d", $0) }
        let positions = shown.compactMap { text.range(of: "│  " + $0)?.lowerBound }
        XCTAssertEqual(positions.count, 15, "every row read so far is listed:\n\(text)")
        XCTAssertEqual(positions, positions.sorted(), "in the list's order (by title):\n\(text)")
        XCTAssertFalse(text.contains("Book 16"), text)
        XCTAssertTrue(text.contains("┌ books/id40 "), "the top row is selected (Book 01):\n\(text)")

        _ = app.apply(.key(.character("j")))
        _ = app.apply(.key(.character("j")))
        XCTAssertTrue(screen(app).contains("┌ books/id38 "), "j acts on the rows there (Book 03 is id38):\n\(screen(app))")

        try await app.deliver()
        while app.apply(.sortSlice) == .keepRunning {}
        text = screen(app)
        XCTAssertTrue(text.contains(" 3/40 ┘"), "loaded: the position, the selection kept on its document:\n\(text)")
        XCTAssertTrue(text.contains("┌ books/id38 "), text)
        XCTAssertEqual(tab.rowCount, 40)
    }

    /// Rows read later may sort above the top one: until a key moves it, the selection stays
    /// on the top row, not on the document that happened to be there first.
    func testTheRowsReadSoFarAreDecodedOnlyAsDrawnAndCountedOnceAllAreRead() async throws {
        let read = try await Firestore(directory: folder).collection("books").getDocuments().documents
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        let tab = try XCTUnwrap(app.tab as? ListTab<WholeCollectionRows<ShelfBook>>)
        tab.source.live.applyProgress(LoadProgress(read: 30, total: 40, documents: Array(read.prefix(30))))
        while app.apply(.sortSlice) == .keepRunning {}
        _ = app.frame(size: Size(width: 100, height: 12))
        XCTAssertNil(tab.problemCount, "not counted while the collection is read")
        XCTAssertLessThan(tab.source.live.rows.filter(\.isDecoded).count, 30, "only the rows drawn (and the selected one) are decoded")

        try await app.deliver()
        XCTAssertEqual(tab.problemCount, 0, "counted once every row is read")
        XCTAssertEqual(tab.source.live.rows.filter(\.isDecoded).count, 40)
    }

    func testTheTopRowStaysSelectedAsRowsAboveItArrive() async throws {
        let read = try await Firestore(directory: folder).collection("books").getDocuments().documents
        func books(_ numbers: ClosedRange<Int>) -> [QueryDocumentSnapshot] {
            read.filter { numbers.contains(41 - Int($0.documentID.dropFirst(2))!) }
        }
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        let tab = try XCTUnwrap(app.tab as? ListTab<WholeCollectionRows<ShelfBook>>)
        tab.source.live.applyProgress(LoadProgress(read: 11, total: 40, documents: books(5...15)))
        XCTAssertTrue(screen(app).contains("┌ books/id36 "), "Book 05 on top:\n\(screen(app))")
        tab.source.live.applyProgress(LoadProgress(read: 15, total: 40, documents: books(1...4)))
        XCTAssertTrue(screen(app).contains("┌ books/id40 "), "Book 01 now on top, and selected:\n\(screen(app))")
        try await app.deliver()
        XCTAssertTrue(screen(app).contains(" 1/40 ┘"), screen(app))
    }

    /// Listening again after `unsubscribe`, the rows kept from before are not added to by the
    /// new read's slices (they stay until its first snapshot replaces them).
    func testListeningAgainDoesNotAddTheSlicesToTheRowsKept() async throws {
        let read = try await Firestore(directory: folder).collection("books").getDocuments().documents
        let books = try Firestore(directory: folder).collection("books")
        let live = LiveCollection<ShelfBook>(books)
        live.subscribe()
        await books.deliverToListeners()
        XCTAssertTrue(live.hasLoaded)
        XCTAssertEqual(live.rows.count, 40)
        live.unsubscribe()
        live.subscribe()
        live.applyProgress(LoadProgress(read: 15, total: 40, documents: Array(read.prefix(15))))
        XCTAssertEqual(live.rows.count, 40, "no row twice")
        live.unsubscribe()
    }

    /// Slices read in id order only add rows after those there: however many land between two
    /// frames (a million rows load in 120), the keys made stay and only the new rows' are made,
    /// and the order follows without a sort of every row.
    func testSlicesAppendedBetweenFramesMakeOnlyTheNewRowsKeys() async throws {
        let read = try await Firestore(directory: folder).collection("books").getDocuments().documents
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        let tab = try XCTUnwrap(app.tab as? ListTab<WholeCollectionRows<ShelfBook>>)
        tab.source.live.applyProgress(LoadProgress(read: 4, total: 40, documents: Array(read[0..<4])))
        _ = screen(app)
        XCTAssertEqual(tab.source.sortKeysMade, 4)
        let version = tab.version
        // Twelve slices (more than the maps of positions kept) before the next frame.
        for slice in 0..<12 {
            let documents = Array(read[(4 + slice * 3)..<(7 + slice * 3)])
            tab.source.live.applyProgress(LoadProgress(read: 7 + slice * 3, total: 40, documents: documents))
        }
        XCTAssertEqual(tab.source.live.rowMap(since: version)?.keptInPlace, 4, "every earlier row in its place")
        let text = screen(app)
        XCTAssertEqual(tab.source.sortKeysMade, 40, "the first four keys kept, 36 made:\n\(text)")
        let titles = text.components(separatedBy: "\n").compactMap { line in
            line.range(of: #"Book \d\d"#, options: .regularExpression).map { String(line[$0]) }
        }
        XCTAssertEqual(titles.prefix(20), titles.sorted().prefix(20), text)
    }
}

import DocumentStore
import Foundation
import ShelfModels
@testable import TerminalUI
import XCTest

/// A large list makes its sort keys and search texts on every core (`EveryCore`), so what a
/// column gives from a stored document must run off the main thread. Issue 51: a column's
/// cell isolated to the main actor trapped (SIGILL, the runtime's isolation check) when a
/// filter was typed while 30,000 books loaded. Each column of every tab the app makes is run
/// here on a thread of its own, over the demo data, with the runtime's checks on (Swift 6).
@MainActor
final class OffMainColumnsTests: FolderAppTestCase {
    override func setUp() async throws {
        try await super.setUp()
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Data").standardized
        try FileManager.default.copyItem(at: demo, to: folder)
    }

    func testEveryKnownTabsCellsAndSearchTextsAreMadeOffTheMainThread() async throws {
        let store = try Firestore(directory: folder)
        try await assertOffMain(KnownPresentations.books(BooksViewModel(db: store)), "books", store)
        try await assertOffMain(KnownPresentations.colors(MappingColorsViewModel(db: store)), "colors", store)
        try await assertOffMain(KnownPresentations.languages(CustomizeMappingViewModel(db: store)), "programming-languages", store)
        try await assertOffMain(KnownPresentations.offices(MappingGeoPointsViewModel(db: store)), "locations", store)
        try await assertOffMain(KnownPresentations.articles(MappingEnumsViewModel(db: store)), "articles", store)
    }

    func testARawTabsCellsAndSearchTextsAreMadeOffTheMainThread() async throws {
        let store = try Firestore(directory: folder)
        let books = store.collection("books")
        let presentation = Presentation.raw(books)
        try await assertOffMain(presentation, "books", store)
        let sample = try await books.getDocuments().documents
        try await assertOffMain(Presentation(title: "books", columns: Presentation.fieldColumns(sample), nameFields: [],
                                             detail: presentation.detail, form: presentation.form), "books", store)
    }

    /// Runs every column's stored cell and the rows' search text for each document of the
    /// collection on a new thread, and checks they come out as on the main thread.
    private func assertOffMain<Model>(_ presentation: Presentation<Model>, _ collection: String, _ store: Firestore,
                                      file: StaticString = #filePath, line: UInt = #line) async throws {
        let snapshots: [DocumentSnapshot] = try await store.collection(collection).getDocuments().documents
        XCTAssertFalse(snapshots.isEmpty, "the demo data has \(collection)", file: file, line: line)
        let cells = presentation.columns.map(\.stored), fold = Column.searchTextFolding(among: presentation.columns)
        let work: @Sendable () -> [String] = {
            snapshots.flatMap { snapshot in
                var bytes: [UInt8] = []
                fold(snapshot, &bytes)
                return cells.map { "\($0(snapshot)?.text ?? "-")" } + [String(decoding: bytes, as: UTF8.self)]
            }
        }
        let offMain = await Self.onThreadOfItsOwn(work)
        XCTAssertFalse(offMain.ranOnMain, file: file, line: line)
        XCTAssertEqual(offMain.result, work(), "the same cells and texts as on the main thread", file: file, line: line)
    }

    /// `body` on a thread that is not the main one, and whether it was after all.
    private nonisolated static func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> (result: T, ranOnMain: Bool) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: (body(), Thread.isMainThread)) }.start()
        }
    }
}

import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A test of the app on a folder of its own: `folder` is new for each test (its documents
/// written by the test's `setUp` after this one's) and removed after it.
@MainActor
class FolderAppTestCase: XCTestCase {
    var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-\(Self.self)-\(UUID().uuidString)")
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    /// The app on `store` (the test's folder unless said), once the shown tab has its first
    /// snapshot. `prepare` runs before that snapshot is taken in; effects run at once unless
    /// the test holds them (`ManualEffects`).
    func makeApp(store: Firestore? = nil, colorMode: ColorMode = .none, draftFile: DraftFile? = nil,
                 effects: any EffectRunner = SynchronousEffects(), prepare: (AppModel) -> Void = { _ in },
                 file: StaticString = #filePath, line: UInt = #line) async throws -> AppModel {
        let app = AppModel(store: try store ?? Firestore(directory: folder), colorMode: colorMode, draftFile: draftFile, effects: effects)
        prepare(app)
        try await deliver(app, { app.tab.isLoaded }, "the \(app.tab.collectionID) tab never loaded", file: file, line: line)
        return app
    }

    /// The shown tab takes in what the store holds now; then `condition` must hold.
    func deliver(_ app: AppModel, _ condition: () -> Bool, _ what: String = "", file: StaticString = #filePath, line: UInt = #line) async throws {
        try await app.deliver()
        XCTAssertTrue(condition(), what, file: file, line: line)
    }

    /// Types `keys` one by one, as characters.
    func press(_ app: AppModel, _ keys: String) {
        for key in keys { _ = app.apply(.key(.character(key))) }
    }
}

/// How the numbered books' ids run (`writeNumberedBooks`).
enum NumberedBookIDs {
    /// `b01`, `b02`…: in the titles' order.
    case likeTitles
    /// `id01` for the last book, `id02` for the one before…: in the opposite order to the
    /// titles, so a list by id and a list by title differ.
    case oppositeToTitles
}

extension FolderAppTestCase {
    /// The books many tests list: "Book 01", "Book 02"… by "A", book n of n pages, each with
    /// the `extra` fields of its number (which may replace those).
    func writeNumberedBooks(_ numbers: ClosedRange<Int>, ids: NumberedBookIDs = .likeTitles,
                            extra: (Int) -> [String: Any] = { _ in [:] }) throws {
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for number in numbers {
            let fields = ["author": "A", "numberOfPages": number, "title": String(format: "Book %02d", number)]
                .merging(extra(number)) { _, extra in extra }
            let id = switch ids {
            case .likeTitles: String(format: "b%02d", number)
            case .oppositeToTitles: String(format: "id%02d", numbers.upperBound + numbers.lowerBound - number)
            }
            try JSONSerialization.data(withJSONObject: fields).write(to: books.appendingPathComponent(id + ".json"))
        }
    }
}

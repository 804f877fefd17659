import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// `:` goes to a row by its number or to a tab by its name, as `:120` does in vim and less:
/// what visidata's and lazygit's users reach for in long lists and with many folders.
@MainActor
final class GoToTests: FolderAppTestCase {
    override func setUp() async throws {
        try await super.setUp()
        try writeNumberedBooks(1...30)
        for collection in ["colors", "notes", "notebooks", "Numbers"] {
            try folder.writeDocument("\(collection)/one", ##"{"name": "one", "color": "#000000"}"##)
        }
    }

    private func goTo(_ text: String, _ app: AppModel) {
        press(app, ":" + text)
        _ = app.apply(.key(.enter))
    }

    private var selected: (AppModel) -> String? { { $0.state.lists.states[$0.tab.collectionID]?.selectedID } }

    func testANumberGoesToThatRowOfTheListAsShown() async throws {
        let app = try await makeApp()
        goTo("12", app)
        XCTAssertEqual(selected(app), "b12")
        XCTAssertNil(app.notice)
        _ = app.apply(.key(.character("S")))  // Z to A: row 1 is b30
        goTo("1", app)
        XCTAssertEqual(selected(app), "b30")
        goTo("3", app)
        XCTAssertEqual(selected(app), "b28", "rows count in the order shown")
    }

    func testANumberPastTheEndGoesToTheLastRowAndSaysSo() async throws {
        let app = try await makeApp()
        goTo("400", app)
        XCTAssertEqual(selected(app), "b30")
        XCTAssertEqual(app.notice, "There is no row 400: went to the last, row 30")
        goTo("0", app)
        XCTAssertEqual(selected(app), "b01", "0 is the first row")
    }

    func testANameGoesToItsTabWholeOrByAUniqueStartIgnoringCase() async throws {
        let app = try await makeApp()
        goTo("colors", app)
        XCTAssertEqual(app.tab.collectionID, "colors")
        goTo("numbers", app)
        XCTAssertEqual(app.tab.collectionID, "Numbers", "case ignored")
        goTo("notes", app)
        XCTAssertEqual(app.tab.collectionID, "notes", "a whole name wins over the names it starts")
        goTo("bo", app)
        XCTAssertEqual(app.tab.collectionID, "books")
    }

    func testADocumentsCollectionAnswersToItsOwnId() async throws {
        try folder.writeDocument("books/b01/reviews/r1", #"{"stars": 5}"#)
        let app = try await makeApp()
        press(app, "c")  // b01's collections open as tabs
        XCTAssertEqual(app.tab.collectionID, "books/b01/reviews")
        goTo("books", app)
        XCTAssertEqual(app.tab.collectionID, "books")
        goTo("Reviews", app)
        XCTAssertEqual(app.tab.collectionID, "books/b01/reviews")
        goTo("books", app)
        goTo("rev", app)
        XCTAssertEqual(app.tab.collectionID, "books/b01/reviews", "by the start of its id too")
    }

    func testANameThatIsNoTabOrSeveralSaysWhich() async throws {
        let app = try await makeApp()
        goTo("zz", app)
        XCTAssertEqual(app.notice, "No tab is named \"zz\" (a number goes to a row)")
        XCTAssertEqual(app.tab.collectionID, "books")
        goTo("no", app)
        XCTAssertEqual(app.notice, "2 tabs start with \"no\": notebooks, notes")
    }

    func testTabCompletesTheTabsNamesAndTheHelpListsTheKeys() async throws {
        let app = try await makeApp()
        press(app, ":c")
        _ = app.apply(.key(.tab))
        XCTAssertEqual(app.textField?.text, "colors")
        _ = app.apply(.key(.escape))
        press(app, ":note")
        _ = app.apply(.key(.tab))
        _ = app.apply(.key(.tab))
        let size = Size(width: 80, height: 16)
        XCTAssertEqual(app.frame(size: size).canvas.lines[14],
                       " Go to row or tab: notebooks                         2 tabs: [notebooks]  notes ")
        XCTAssertEqual(app.frame(size: size).canvas.lines[15],
                       "Enter go  Tab complete  Esc cancel                                              ")
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.tab.collectionID, "notebooks")

        _ = app.apply(.key(.character("?")))
        let help = app.frame(size: Size(width: 130, height: 80)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("Going to a row or a tab (:)"), help)
        XCTAssertTrue(help.contains("Go to a row by its number (:120) or a tab by its name (:colors; Tab completes)"), help)
    }
}

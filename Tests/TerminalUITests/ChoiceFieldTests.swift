import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// An enum field (an article's status) is a picker: ←/→ or Space choose, the choices show
/// under it, and a value on disk that is none of them is shown and kept until changed.
@MainActor
final class ChoiceFieldTests: XCTestCase {
    private let statuses = ["draft", "in review", "approved", "published"]

    private func form(status: String, kept: String? = nil) -> FormWidget {
        FormWidget(fields: [FormField(label: "Title", text: "Enums"),
                            FormField(label: "Status", text: status, choices: statuses, keptChoice: kept)], focus: 1)
    }

    func testThePickerShowsItsValueAndTheChoices() async {
        assertLines(rendered(form(status: "in review"), width: 40, height: 4), """
              Title  Enums
            › Status ◂ in review ▸
                     draft · in review · approved ·
                     published
            """)
        XCTAssertNil(form(status: "draft").cursorPosition(in: Rect(x: 0, y: 0, width: 40, height: 4)), "nothing is typed: no cursor")
    }

    func testArrowsSpaceAndLettersChooseTypingDoesNot() async {
        var widget = form(status: "draft")
        widget.handle(.right)
        XCTAssertEqual(widget.values[1], "in review")
        widget.handle(.character(" "))
        XCTAssertEqual(widget.values[1], "approved")
        widget.handle(.left)
        widget.handle(.left)
        widget.handle(.left)
        XCTAssertEqual(widget.values[1], "published", "← wraps round")
        widget.handle(.character("i"))
        XCTAssertEqual(widget.values[1], "in review", "a letter jumps to the choice it starts")
        XCTAssertFalse(widget.handle(.character("x")))
        XCTAssertFalse(widget.handle(.backspace))
        XCTAssertEqual(widget.values[1], "in review")
    }

    func testAnUnknownValueIsShownAndCanBeChosenAgain() async {
        var widget = form(status: "archived", kept: "archived")
        assertLines(rendered(widget, width: 40, height: 4), """
            › Status ◂ archived ▸
                     draft · in review · approved ·
                     published · archived (as on
                     disk)
            """)
        widget.handle(.right)
        XCTAssertEqual(widget.values[1], "draft")
        widget.handle(.left)
        XCTAssertEqual(widget.values[1], "archived")
    }

    func testSavingAnArticleKeepsAnUnknownStatusUntilChanged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-choice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let articles = folder.appendingPathComponent("articles")
        try FileManager.default.createDirectory(at: articles, withIntermediateDirectories: true)
        let file = articles.appendingPathComponent("a.json")
        try Data(#"{"status": "archived", "title": "Old"}"#.utf8).write(to: file)
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        _ = app.apply(.key(.character("5")))
        try await app.deliver()
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.form?.widget.values, ["Old", "archived"])
        let screen = app.frame(size: Size(width: 80, height: 16)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("   Status ◂ archived ▸ "), screen)
        XCTAssertTrue(screen.contains("          archived (as on disk) "), screen)
        _ = app.apply(.key(.character("!")))
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved articles/a")
        var stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String]
        XCTAssertEqual(stored, ["status": "archived", "title": "Old!"])

        try await app.deliver()
        _ = app.apply(.key(.character("e")))
        _ = app.apply(.key(.tab))
        _ = app.apply(.key(.character("p")))
        _ = app.apply(.key(.enter))
        stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String]
        XCTAssertEqual(stored, ["status": "published", "title": "Old!"])
    }
}

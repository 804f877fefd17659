import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// Prompts and questions answer only the keys of their tables (`Keymap`), which the hint line
/// and the help show; the guide's `o` fetch leaves through the effect runner like every effect.
@MainActor
final class PromptAndQuestionKeysTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for index in 1...3 {
            let id = String(format: "b%02d", index)
            try Data(#"{"author": "X", "numberOfPages": \#(index), "title": "Book \#(index)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
    }

    private func screen(_ app: AppModel) -> String { app.frame(size: Size(width: 100, height: 20)).canvas.lines.joined(separator: "\n") }

    func testShiftTabCyclesBackThroughItsOwnBindingWhichTheHelpLists() async throws {
        let app = try await makeApp()
        press(app, "o")
        XCTAssertEqual(app.bindings.action(for: .backTab), .previousField)
        press(app, "b")
        _ = app.apply(.key(.tab))  // completes the shared "b0"
        _ = app.apply(.key(.tab))  // lists b01, b02, b03
        _ = app.apply(.key(.tab))  // takes the first
        XCTAssertEqual(app.textField?.text, "b01")
        _ = app.apply(.key(.backTab))
        XCTAssertEqual(app.textField?.text, "b03", "Shift-Tab cycles back")
        _ = app.apply(.key(.escape))
        press(app, "?")
        let help = app.frame(size: Size(width: 120, height: 70)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("Shift-Tab          Cycle back through the ids listed"), help)
    }

    func testAConflictsEscapeIsItsOwnAnswerBackToTheFormWhileNReloads() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("e")))
        press(app, "!")
        try Data(#"{"author": "Y", "numberOfPages": 1, "title": "Changed"}"#.utf8).write(to: folder.appendingPathComponent("books/b01.json"))
        try await app.deliver()
        _ = app.apply(.key(.enter))
        guard case .confirm(.conflict) = app.state.mode else { return XCTFail("no conflict question: \(app.state.mode)") }
        XCTAssertEqual(app.bindings.action(for: .escape), .cancel)
        XCTAssertEqual(app.bindings.action(for: .character("n")), .no)
        XCTAssertEqual(app.bindings.action(for: .character("y")), .yes)
        XCTAssertTrue(screen(app).components(separatedBy: "\n").last!.hasPrefix("y Overwrite  n Reload"), "Esc has no hint of its own")

        _ = app.apply(.key(.escape))
        guard case .form = app.state.mode else { return XCTFail("Esc goes back to the form: \(app.state.mode)") }
        _ = app.apply(.key(.enter))
        _ = app.apply(.key(.character("n")))
        guard case .form(let session) = app.state.mode else { return XCTFail("n reloads the form: \(app.state.mode)") }
        XCTAssertFalse(session.isDirty, "reloaded from disk")
        XCTAssertTrue(screen(app).contains("Reloaded from disk"), screen(app))
    }

    func testTheLookupIsAnEffectOfTheRunnerAndFollowsChangesAsOne() async throws {
        let runner = ManualEffects()
        let app = try await makeApp(effects: runner)
        runner.completeStartListing()
        press(app, "o")
        press(app, "b02")
        _ = app.apply(.key(.enter))
        XCTAssertEqual(runner.pendingPaths, ["the guide's fetch of books/b02"])
        await runner.completeCall()
        XCTAssertTrue(screen(app).contains("Title   Book 2"), screen(app))

        try Data(#"{"author": "X", "numberOfPages": 2, "title": "Book Two Renamed"}"#.utf8).write(to: folder.appendingPathComponent("books/b02.json"))
        try await app.deliver()
        _ = screen(app)  // the frame sees the books changed and fetches the book again
        XCTAssertEqual(runner.pendingPaths, ["the guide's fetch of books/b02"])
        await runner.completeCall()
        XCTAssertTrue(screen(app).contains("Title   Book Two Renamed"), screen(app))
    }
}

import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A write never holds a key: saving, deleting, undoing start a write and return; keys are
/// answered while it is in flight and the status line says what is being written; its result
/// then says what it says when writes were immediate. Writes run in the order asked for; a
/// failed save gives the form back as typed; quitting waits for them. The runner here holds
/// each write until the test completes it, so no test depends on timing.
@MainActor
final class WritesInFlightTests: FolderAppTestCase {
    private var runner: ManualEffects!

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for (id, title) in [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")] {
            try Data(#"{"author": "X", "numberOfPages": 1, "title": "\#(title)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
        runner = ManualEffects()
    }

    private func title(_ id: String) throws -> String? {
        let url = folder.appendingPathComponent("books/\(id).json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return (object as? [String: Any])?["title"] as? String
    }

    private func statusLine(_ app: AppModel) -> String {
        app.frame(size: Size(width: 100, height: 20)).canvas.lines[18]
    }

    /// How a server that does not answer fails a write.
    private func noAnswer(_ message: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.unavailable, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// `e` on the selected book, `text` typed at the end of its title, Enter.
    private func editTitle(_ app: AppModel, appending text: String) {
        _ = app.apply(.key(.character("e")))
        for c in text { _ = app.apply(.key(.character(c))) }
        _ = app.apply(.key(.enter))
    }

    func testASaveReturnsAtOnceKeysAreAnsweredMeanwhileAndItsResultSaysSaved() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        editTitle(app, appending: "!")
        guard case .browse = app.state.mode else { return XCTFail("the form closes as a save closes it: \(app.state.mode)") }
        XCTAssertEqual(runner.pendingPaths, ["books/a"], "the write waits for its runner")
        XCTAssertEqual(try title("a"), "Alpha", "nothing written yet")
        XCTAssertTrue(statusLine(app).contains("Saving books/a…"), statusLine(app))

        _ = app.apply(.key(.down))
        XCTAssertEqual(app.state.lists.states["books"]?.selectedID, "b", "a key is answered while the write is in flight")
        XCTAssertTrue(statusLine(app).contains("Saving books/a…"), "the line still says so after a key: \(statusLine(app))")

        runner.complete()
        XCTAssertEqual(app.notice, "Saved books/a")
        XCTAssertEqual(try title("a"), "Alpha!")
        XCTAssertEqual(app.state.lists.states["books"]?.selectedID, "a", "the selection follows the saved document")
        XCTAssertFalse(statusLine(app).contains("Saving"), statusLine(app))

        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(runner.pendingPaths, ["books/a"], "undo is a write too")
        XCTAssertTrue(statusLine(app).contains("Undoing books/a…"), statusLine(app))
        runner.complete()
        XCTAssertEqual(app.notice, "Restored books/a", "the save was recorded for u")
        XCTAssertEqual(try title("a"), "Alpha")
    }

    func testAFailedSaveBringsTheFormBackWithWhatWasTyped() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        editTitle(app, appending: " typed")
        _ = app.apply(.key(.down))
        runner.fail(with: noAnswer("cannot commit: no answer"))
        guard case .form = app.state.mode else { return XCTFail("the form is back: \(app.state.mode)") }
        XCTAssertEqual(app.form?.widget.values.first, "Alpha typed", "nothing typed is lost")
        XCTAssertEqual(app.notice, "Not saved: cannot commit: no answer")
        XCTAssertEqual(try title("a"), "Alpha")

        _ = app.apply(.key(.enter))
        runner.complete()
        XCTAssertEqual(app.notice, "Saved books/a", "the form saves again once back")
        XCTAssertEqual(try title("a"), "Alpha typed")
    }

    func testAFailureWhileAnotherFormIsOpenWaitsForThatFormToClose() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        editTitle(app, appending: " first")
        _ = app.apply(.key(.character("a")))
        runner.fail(with: noAnswer("no answer"))
        XCTAssertEqual(app.form?.spec.title, "New book", "the form being typed in stays")
        XCTAssertEqual(app.notice, "Not saved: no answer")
        _ = app.apply(.key(.escape))
        XCTAssertEqual(app.form?.spec.title, "Edit books/a", "then the failed form comes back")
        XCTAssertEqual(app.form?.widget.values.first, "Alpha first")
    }

    func testWritesRunInTheOrderAskedAndAnUndoWaitsForThem() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        editTitle(app, appending: "!")
        _ = app.apply(.key(.down))
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        XCTAssertEqual(runner.pendingPaths, ["books/a", "books/b"])
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(runner.pendingPaths, ["books/a", "books/b"], "u waits: the change to undo is the delete in flight")
        XCTAssertTrue(statusLine(app).contains("Saving books/a… (1 more after it); then undo"), statusLine(app))

        runner.complete()
        XCTAssertEqual(app.notice, "Saved books/a")
        XCTAssertEqual(runner.pendingPaths, ["books/b"])
        runner.complete()
        XCTAssertEqual(runner.pendingPaths, ["books/b"], "the delete done, the undo that waited starts")
        XCTAssertNil(try title("b"))
        runner.complete()
        XCTAssertEqual(app.notice, "Restored books/b")
        XCTAssertEqual(try title("b"), "Beta")
        XCTAssertEqual(Array(app.status.history.suffix(3).map(\.text)), ["Saved books/a", "Deleted books/b (u undoes)", "Restored books/b"])
    }

    func testAnEditOfADocumentBeingWrittenWaitsForTheWrite() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        editTitle(app, appending: "!")
        _ = app.apply(.key(.character("e")))
        guard case .browse = app.state.mode else { return XCTFail("no form on the document as it was: \(app.state.mode)") }
        XCTAssertEqual(app.notice, "books/a is being written: e edits it once that is done")
    }

    func testQuittingWaitsForTheWritesInFlight() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        var outcomes: [Outcome] = []
        app.afterEffect = { outcomes.append($0) }
        editTitle(app, appending: "!")
        XCTAssertEqual(app.apply(.key(.character("q"))), .keepRunning)
        XCTAssertTrue(statusLine(app).contains("Saving books/a…; then quitting"), statusLine(app))
        runner.complete()
        XCTAssertEqual(outcomes, [.quit], "quits once the write is done")
        XCTAssertEqual(try title("a"), "Alpha!")
    }

    func testAFailedWriteCancelsTheQuitThatWaitedForIt() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        var outcomes: [Outcome] = []
        app.afterEffect = { outcomes.append($0) }
        editTitle(app, appending: "!")
        XCTAssertEqual(app.apply(.key(.ctrl("c"))), .keepRunning)
        runner.fail(with: noAnswer("no answer"))
        XCTAssertEqual(outcomes, [.keepRunning], "the failure is shown instead")
        guard case .form = app.state.mode else { return XCTFail("the form is back: \(app.state.mode)") }
    }

    func testASecondQuitWhileWaitingQuitsAndTheUnfinishedSaveIsKeptAsADraft() async throws {
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })
        editTitle(app, appending: " kept")
        XCTAssertEqual(app.apply(.key(.character("q"))), .keepRunning)
        XCTAssertEqual(app.apply(.key(.character("q"))), .quit)
        XCTAssertEqual(app.unsavedDraft?.values.first, "Alpha kept", "the save in flight keeps its text for a draft")
        XCTAssertEqual(app.formDraft?.values.first, "Alpha kept", "and SIGTERM keeps it too")
        XCTAssertEqual(app.finishWrites(within: .seconds(1)), [], "the app waits for the write as it quits")
        XCTAssertNil(app.unsavedDraft, "once written, nothing is left to keep")
        XCTAssertEqual(try title("a"), "Alpha kept")
    }
}

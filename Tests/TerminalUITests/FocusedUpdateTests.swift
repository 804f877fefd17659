import DocumentStore
import Foundation
@testable import TerminalUI
import XCTest

/// apply's focused updates change only the state they are given and reply with what they want
/// done: nothing is started, said or drawn until the model does their reply.
@MainActor
final class FocusedUpdateTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try Data(#"{"author": "Frank Herbert", "numberOfPages": 412, "title": "Dune"}"#.utf8).write(to: books.appendingPathComponent("dune.json"))
    }

    func testAKeysUpdateRepliesWithItsEffectAndChangesOnlyTheStateGiven() async throws {
        let runner = ManualEffects()
        let app = try await makeApp(effects: runner, prepare: { _ in runner.completeStartListing() })

        var state = app.state
        let listing = app.browsing.handle(.character("c"), pageSize: 10, in: &state)
        guard case .listCollections(let reference)? = listing.effects.first, listing.effects.count == 1 else {
            return XCTFail("c replies with one listing of the selected document's collections: \(listing.effects)")
        }
        XCTAssertEqual(reference.path, "books/dune")
        XCTAssertTrue(runner.pending.isEmpty, "nothing is started until the model does the reply")

        let question = app.browsing.handle(.character("d"), pageSize: 10, in: &state)
        guard case .confirm(.delete(id: "dune")) = state.mode else { return XCTFail("d asks first: \(state.mode)") }
        guard case .browse = app.state.mode else { return XCTFail("the model's state is not the one given") }
        XCTAssertNil(question.notice)

        let empty = app.writing.undoOrRedo(redo: false, in: &state)
        XCTAssertEqual(empty.notice, "Nothing to undo")
        XCTAssertNil(app.notice, "said only once the model does the reply")
        XCTAssertEqual(app.apply(.key(.character("u"))), .keepRunning)
        XCTAssertEqual(app.notice, "Nothing to undo")
    }
}

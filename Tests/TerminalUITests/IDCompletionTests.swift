import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// Tab in the `o` prompt completes ids as a shell does.
@MainActor
final class IDCompletionTests: XCTestCase {
    private let ids = ["alpha-1", "alpha-2", "alpine", "beta", "café"]

    func testTabGrowsThePrefixToWhatTheIdsShare() async {
        XCTAssertEqual(IDCompletion.complete("al", among: ids).text, "alp")
        XCTAssertNil(IDCompletion.complete("al", among: ids).listing)
        XCTAssertEqual(IDCompletion.complete("alpha", among: ids).text, "alpha-")
        XCTAssertEqual(IDCompletion.complete("b", among: ids).text, "beta", "the only id: completed whole")
        XCTAssertEqual(IDCompletion.complete("caf", among: ids).text, "café")
    }

    func testTabThatCannotGrowListsTheIdsAndFurtherTabsCycle() async throws {
        let step = IDCompletion.complete("alp", among: ids)
        XCTAssertEqual(step.text, "alp")
        var listing = try XCTUnwrap(step.listing)
        XCTAssertEqual(listing.line(naming: "id", in: "books"), "3 ids: alpha-1  alpha-2  alpine")
        XCTAssertEqual(listing.cycle(forward: true), "alpha-1")
        XCTAssertEqual(listing.cycle(forward: true), "alpha-2")
        XCTAssertEqual(listing.line(naming: "id", in: "books"), "3 ids: alpha-1  [alpha-2]  alpine")
        XCTAssertEqual(listing.cycle(forward: true), "alpine")
        XCTAssertEqual(listing.line(naming: "id", in: "books"), "3 ids: … alpha-2  [alpine]")
        XCTAssertEqual(listing.cycle(forward: false), "alpha-2")
        XCTAssertEqual(listing.cycle(forward: true), "alpine")
        XCTAssertEqual(listing.cycle(forward: true), "alpha-1", "round again")
        XCTAssertEqual(listing.cycle(forward: false), "alpine", "Shift-Tab goes back")
    }

    func testNoMatchSaysSo() async {
        let step = IDCompletion.complete("zz", among: ids)
        XCTAssertEqual(step.text, "zz")
        XCTAssertEqual(step.listing?.line(naming: "id", in: "books"), "No id in books starts with \"zz\"")
    }

    func testThePromptCompletesFromTheShownTabAndOpensTheId() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-complete-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for id in ["alpha-1", "alpha-2", "beta"] {
            try Data(#"{"author": "X", "numberOfPages": 1, "title": "Book \#(id)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        try await app.deliver()
        _ = app.apply(.key(.character("o")))
        _ = app.apply(.key(.character("a")))
        _ = app.apply(.key(.tab))
        XCTAssertEqual(app.textField?.text, "alpha-")
        _ = app.apply(.key(.tab))
        let size = Size(width: 80, height: 16)
        XCTAssertEqual(app.frame(size: size).canvas.lines[14],
                       " Open books/alpha-                                      2 ids: alpha-1  alpha-2 ")
        _ = app.apply(.key(.tab))
        _ = app.apply(.key(.tab))
        XCTAssertEqual(app.frame(size: size).canvas.lines[14],
                       " Open books/alpha-2                                   2 ids: alpha-1  [alpha-2] ")
        XCTAssertEqual(app.frame(size: size).canvas.lines[15],
                       "Enter open  Tab complete  Esc cancel                                            ")
        _ = app.apply(.key(.backspace))  // typing ends the listing: the counts come back
        XCTAssertTrue(app.frame(size: size).canvas.lines[14].hasSuffix("3 documents "))
        _ = app.apply(.key(.character("1")))
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.state.lists.states["books"]?.selectedID, "alpha-1")

        _ = app.apply(.key(.character("?")))
        let help = app.frame(size: Size(width: 120, height: 70)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("Opening by id (o)"), help)
        XCTAssertTrue(help.contains("Tab                Complete the id; again: list the ids and cycle"), help)
        XCTAssertTrue(help.contains("←/→/Space          In a field with choices (a status): the previous or next value; a letter jumps"), help)
    }
}

import Foundation
import XCTest

/// `u` undoes several deletes, newest first, and `Ctrl-R` redoes them, in the real binary.
final class UndoRedoEndToEndTests: XCTestCase {
    private var session: TmuxSession?
    private var dataFolder: URL?

    override func tearDown() {
        session?.kill()
        session = nil
        if let dataFolder { removeTemporaryCopy(dataFolder) }
        super.tearDown()
    }

    func testUUndoesTwoDeletesAndCtrlRRedoesOne() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data)
        session = tmux
        let first = data.appendingPathComponent("books/a-game-of-thrones.json")
        let second = data.appendingPathComponent("books/a-wizard-of-earthsea.json")
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "d", "y")
        tmux.waitFor(text: "46 documents")
        tmux.send(keys: "d", "y")
        tmux.waitFor(text: "45 documents")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path) || FileManager.default.fileExists(atPath: second.path))

        tmux.send(keys: "u")
        tmux.waitFor(text: "Restored books/a-wizard-of-earthsea")
        tmux.waitFor(text: "46 documents")
        tmux.send(keys: "u")
        tmux.waitFor(text: "Restored books/a-game-of-thrones")
        tmux.waitFor(text: "47 documents")
        XCTAssertTrue(FileManager.default.fileExists(atPath: first.path) && FileManager.default.fileExists(atPath: second.path))

        tmux.send(keys: "C-r")
        tmux.waitFor(text: "Redone: books/a-game-of-thrones deleted again")
        tmux.waitFor(text: "46 documents")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: second.path))
    }
}

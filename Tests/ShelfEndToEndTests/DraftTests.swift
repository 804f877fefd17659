import Foundation
import XCTest

/// SIGTERM or SIGHUP with a form holding typed text keeps it as a draft under the user's state
/// folder; the next start offers it, and `y` reopens the form with the text.
final class DraftTests: XCTestCase {
    private var sessions: [TmuxSession] = []
    private var dataFolder: URL?
    private var stateFolder: URL?

    override func tearDown() {
        sessions.forEach { $0.kill() }
        sessions = []
        if let dataFolder { removeTemporaryCopy(dataFolder) }
        if let stateFolder { try? FileManager.default.removeItem(at: stateFolder) }
        super.tearDown()
    }

    func testSIGTERMKeepsTheFormAndTheNextStartReopensIt() throws { try checkDraft(signal: SIGTERM) }
    func testSIGHUPKeepsTheFormAndTheNextStartReopensIt() throws { try checkDraft(signal: SIGHUP) }

    private func start() throws -> TmuxSession {
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: try XCTUnwrap(dataFolder),
                                   environment: ["XDG_STATE_HOME": try XCTUnwrap(stateFolder).path])
        sessions.append(tmux)
        return tmux
    }

    private func draftFiles() -> [String] {
        let folder = stateFolder!.appendingPathComponent("shelf")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("draft-") }
    }

    private func checkDraft(signal: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
        dataFolder = try temporaryDataCopy()
        stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-state-\(UUID().uuidString)")
        let first = try start()
        first.waitFor(text: "47 documents", file: file, line: line)
        first.send(keys: "2")
        first.waitFor(text: "┌ Colors ", file: file, line: line)
        first.send(keys: "a")
        first.waitFor(text: "New colour", file: file, line: line)
        first.type("Half typed")
        first.send(keys: "Tab")
        first.type("#12345")
        first.waitFor(text: "#12345", file: file, line: line)
        let pid = try XCTUnwrap(first.shelfPID(), file: file, line: line)
        sendSignal(signal, to: pid)
        first.waitForScreen("shelf exits", afterExit: true, file: file, line: line) { $0.contains(TmuxSession.exitedMarker) }
        let exited = first.screen()
        XCTAssertTrue(exited.contains("kept the form you were typing in (New colour)"), "shelf says where the draft went:\n\(TmuxSession.framed(exited))", file: file, line: line)
        XCTAssertEqual(draftFiles().count, 1, "one draft under $XDG_STATE_HOME/shelf", file: file, line: line)
        first.kill()

        let second = try start()
        second.waitFor(text: "┌ Draft kept", file: file, line: line)
        XCTAssertTrue(second.screen().contains("New colour"), "the question names the form:\n\(TmuxSession.framed(second.screen()))", file: file, line: line)
        second.send(keys: "y")
        second.waitFor(text: "Reopened the draft of New colour", file: file, line: line)
        let form = second.screen()
        XCTAssertTrue(form.contains("Half typed"), "the name comes back:\n\(TmuxSession.framed(form))", file: file, line: line)
        XCTAssertTrue(form.contains("#12345"), "the colour comes back:\n\(TmuxSession.framed(form))", file: file, line: line)
        XCTAssertTrue(form.contains("┌ Colors "), "on its tab:\n\(TmuxSession.framed(form))", file: file, line: line)
        XCTAssertEqual(draftFiles(), [], "a reopened draft is removed: the form holds the text now", file: file, line: line)

        // The form goes on as before: finish the colour and save it.
        second.type("6")
        second.send(keys: "Enter")
        second.waitFor(text: "Added colors/", file: file, line: line)
        let colours = try FileManager.default.contentsOfDirectory(atPath: dataFolder!.appendingPathComponent("colors").path)
        XCTAssertEqual(colours.filter { $0.hasSuffix(".json") }.count, 62, file: file, line: line)
    }

    func testNDiscardsTheDraft() throws {
        dataFolder = try temporaryDataCopy()
        stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-state-\(UUID().uuidString)")
        let first = try start()
        first.waitFor(text: "47 documents")
        first.send(keys: "a")
        first.waitFor(text: "New book")
        first.type("Draft title")
        first.waitFor(text: "Draft title")
        sendSignal(SIGTERM, to: try XCTUnwrap(first.shelfPID()))
        first.waitForScreen("shelf exits", afterExit: true) { $0.contains(TmuxSession.exitedMarker) }
        first.kill()

        let second = try start()
        second.waitFor(text: "┌ Draft kept")
        second.send(keys: "n")
        second.waitFor(text: "Draft discarded")
        XCTAssertEqual(draftFiles(), [])
        XCTAssertFalse(second.screen().contains("Draft title"))
    }
}

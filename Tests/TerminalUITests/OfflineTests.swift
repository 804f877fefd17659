import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A store on a server that stops answering (`MemoryServer`): the status line says offline,
/// naming the server and the reason; keys go on working on the rows there are; a save fails
/// and keeps the form; once the server answers again the line goes and the same save works.
/// A folder never says offline.
@MainActor
final class OfflineTests: FolderAppTestCase {
    private let colors = [
        "colors/a": ##"{"name": "Amber", "color": "#ffbf00"}"##,
        "colors/b": ##"{"name": "Blue", "color": "#0000ff"}"##,
    ]

    /// The app on a server's colors, both listed.
    private func appOnServer() async throws -> (AppModel, MemoryServer) {
        let (server, store) = try MemoryServer.open(colors)
        let app = try await makeApp(store: store) { self.press($0, "2") }
        XCTAssertEqual(app.tab.rowCount, 2)
        return (app, server)
    }

    private func screen(_ app: AppModel) -> Canvas { app.frame(size: Size(width: 120, height: 20)).canvas }

    private func statusRow(_ app: AppModel) -> (text: String, bold: Bool) {
        let canvas = screen(app)
        return (canvas.lines[18], canvas[1, 18].style.bold)
    }

    private func unreachable(_ reason: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.unavailable, userInfo: [NSLocalizedDescriptionKey: "cannot commit to postgresql://shelf@db:5432/shelf: \(reason)",
                                                   NSLocalizedFailureReasonErrorKey: reason])
    }

    func testOnlyAnUnreachableServerIsOffline() {
        let connection = ServerConnection(server: "postgresql://shelf@db:5432/shelf")
        connection.note(unreachable("Connection refused"))
        XCTAssertEqual(connection.statusLine, "Offline: postgresql://shelf@db:5432/shelf — Connection refused; retrying")
        connection.note(FirestoreErrorCode(.deadlineExceeded, userInfo: [NSLocalizedDescriptionKey: "cannot read from db: no answer"]))
        XCTAssertEqual(connection.offlineReason, "cannot read from db: no answer", "without a reason of its own, the whole message")
        connection.note(FirestoreErrorCode(.permissionDenied, userInfo: [NSLocalizedDescriptionKey: "password authentication failed"]))
        XCTAssertNil(connection.statusLine, "the server answered, if only to refuse")
        connection.note(unreachable("Connection refused"))
        connection.note(nil)
        XCTAssertFalse(connection.isOffline)
    }

    func testTheStatusLineSaysOfflineAndKeysStillWork() async throws {
        let (app, server) = try await appOnServer()
        XCTAssertFalse(statusRow(app).text.contains("ffline"))
        server.isDown = true
        app.refreshCollections()  // the timer's look, once a second
        var status = statusRow(app)
        XCTAssertTrue(status.text.contains("Offline: \(server.description) — Connection refused; retrying"), status.text)
        XCTAssertTrue(status.text.hasSuffix("2 documents · offline "), status.text)
        XCTAssertTrue(status.bold, "the whole line stands out while offline")

        _ = app.apply(.key(.down))
        let lines = screen(app).lines.joined(separator: "\n")
        XCTAssertTrue(lines.contains("colors/b"), "keys move over the rows there are:\n\(lines)")
        _ = app.apply(.key(.character("u")))
        status = statusRow(app)
        XCTAssertTrue(status.text.contains("Nothing to undo"), "a message still shows: \(status.text)")
        XCTAssertTrue(status.text.hasSuffix("· offline "), "and offline stays beside the counts: \(status.text)")
    }

    func testASaveWhileOfflineFailsKeepsTheFormAndWorksOnceTheServerIsBack() async throws {
        let (app, server) = try await appOnServer()
        _ = app.apply(.key(.character("a")))
        press(app, "Coral")
        _ = app.apply(.key(.tab))
        press(app, "#ff7f50")

        server.isDown = true
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Not saved: cannot commit to \(server.description): Connection refused")
        guard case .form = app.state.mode else { return XCTFail("the form stays open") }
        XCTAssertEqual(app.form?.widget.values, ["", "Coral", "#ff7f50"], "what was typed stays (the Id left blank)")
        XCTAssertTrue(app.connection?.isOffline == true, "a failed write asks the server at once")
        _ = app.apply(.key(.character(" ")))
        _ = app.apply(.key(.backspace))
        XCTAssertTrue(statusRow(app).text.contains("Offline: \(server.description) — Connection refused"), statusRow(app).text)

        server.isDown = false
        app.refreshCollections()
        XCTAssertFalse(app.connection?.isOffline == true)
        XCTAssertTrue(statusRow(app).text.contains("Back online: \(server.description)"), statusRow(app).text)
        _ = app.apply(.key(.character(" ")))
        _ = app.apply(.key(.backspace))
        let status = statusRow(app).text
        XCTAssertFalse(status.contains("ffline"), "the line goes by itself: \(status)")
        XCTAssertFalse(status.contains("Connection refused"), "the failed write's message is forgotten: \(status)")
        XCTAssertEqual(app.form?.widget.values, ["", "Coral", "#ff7f50"])

        _ = app.apply(.key(.enter))
        XCTAssertTrue(app.notice?.hasPrefix("Added colors/") == true, app.notice ?? "no notice")
        try await deliver(app, { app.tab.rowCount == 3 })
    }

    func testAFolderNeverSaysOffline() async throws {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        XCTAssertNil(app.connection, "a folder has no server to lose")
        try FileManager.default.removeItem(at: folder)
        app.refreshCollections()
        XCTAssertFalse(statusRow(app).text.contains("ffline"), statusRow(app).text)
    }
}

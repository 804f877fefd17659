import Foundation
import XCTest

/// The real `shelf` on a PostgreSQL server of its own (`PostgresCluster`, the one the store's
/// PostgreSQL tests use) that is stopped while the app runs: the status line says offline,
/// naming the server and the reason; a save fails and keeps the form and its text; once the
/// server is started again the line goes by itself and the same save lands in the database.
/// A server down at the start is said plainly, and the terminal is left as it was.
final class OfflineEndToEndTests: TmuxTestCase {
    private var cluster: PostgresCluster?
    private var stateFolder: URL?

    override func tearDown() {
        super.tearDown()  // shelf first, then its server
        cluster?.stop()
        cluster = nil
        if let stateFolder { try? FileManager.default.removeItem(at: stateFolder) }
        stateFolder = nil
    }

    /// A cluster of this test's own holding the demo data in its database `shelf`; its URL.
    private func startServer() throws -> URL {
        let cluster = try PostgresCluster.startOwn()
        self.cluster = cluster
        try cluster.psql("CREATE DATABASE shelf")
        let url = cluster.url(database: "shelf")
        let export = try run(["export", "--data", demoDataFolder().path, "--to", url.absoluteString])
        XCTAssertEqual(export.status, 0, export.output)
        stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-state-\(UUID().uuidString)")
        return url
    }

    private func start(_ url: URL) throws -> TmuxSession {
        let tmux = try TmuxSession(binary: shelfBinary(), data: url.absoluteString, width: 120,
                                   environment: ["XDG_STATE_HOME": try XCTUnwrap(stateFolder).path])
        session = tmux
        return tmux
    }

    func testTheAppSaysOfflineKeepsTheFormAndSavesOnceTheServerIsBack() throws {
        let url = try startServer()
        let cluster = try XCTUnwrap(cluster)
        let server = "postgresql://\(cluster.user)@127.0.0.1:\(cluster.port)/shelf"
        let tmux = try start(url)
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")

        try cluster.stopServer()
        tmux.waitFor(text: "Offline: \(server) — Connection refused; retrying")
        XCTAssertTrue(tmux.screen().contains("61 documents · offline"), TmuxSession.framed(tmux.screen()))
        XCTAssertFalse(tmux.screen().contains(cluster.password), "the password is never shown")
        tmux.send(keys: "j")  // keys go on working on the rows there are
        tmux.waitFor(text: "2/61")

        tmux.fillNewColour("Kept Coral", hex: "#ff7f50")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Not saved: cannot commit to \(server): Connection refused")
        var screen = tmux.screen()
        XCTAssertTrue(screen.contains("New colour") && screen.contains("Kept Coral") && screen.contains("#ff7f50"),
                      "the form and what was typed stay:\n\(TmuxSession.framed(screen))")

        try cluster.startServer()
        tmux.waitFor(text: "Back online: \(server)")
        screen = tmux.screen()
        XCTAssertFalse(screen.contains("offline") || screen.contains("Connection refused"), TmuxSession.framed(screen))
        XCTAssertTrue(screen.contains("Kept Coral"), "the form is still open:\n\(TmuxSession.framed(screen))")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Added colors/")
        tmux.waitFor(text: "62 documents")
        XCTAssertEqual(try cluster.psql("SELECT fields::text FROM shelf_documents WHERE parent = 'colors' AND fields::text LIKE '%Kept Coral%'", database: "shelf")
                        .contains("#ff7f50"), true, "the saved colour is in the database")
    }

    func testAWrongPasswordOrAServerDownAtTheStartIsSaidAndTheTerminalIsRestored() throws {
        _ = try startServer()
        let cluster = try XCTUnwrap(cluster)
        let server = "postgresql://\(cluster.user)@127.0.0.1:\(cluster.port)/shelf"
        let wrong = try run(["--data", cluster.url(database: "shelf", password: "not-the-password").absoluteString])
        XCTAssertEqual(wrong.status, 1, wrong.output)
        XCTAssertTrue(wrong.output.contains("cannot open the store at \(server): password authentication failed"), wrong.output)
        XCTAssertFalse(wrong.output.contains("not-the-password"), "the password is never shown: \(wrong.output)")

        try cluster.stopServer()
        let tmux = try start(cluster.url(database: "shelf"))
        assertExitedAndRestored(tmux, statuses: [1])
        let screen = tmux.history()
        XCTAssertTrue(screen.contains("cannot open the store at \(server): Connection refused"), TmuxSession.framed(screen))
        XCTAssertFalse(screen.contains(cluster.password), "the password is never shown")
    }
}

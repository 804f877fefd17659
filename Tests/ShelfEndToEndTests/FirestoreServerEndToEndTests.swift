import Foundation
import XCTest

/// The real `shelf` as a client of a real `shelf serve` (`--data firestore://…`): two apps on
/// one server see each other's edits live; when the server goes away the status line says
/// offline, naming it, and once it is back the line goes and what changed meanwhile shows.
final class FirestoreServerEndToEndTests: TmuxTestCase {
    private var servers: [Process] = []
    private var others: [TmuxSession] = []

    override func tearDown() {
        for other in others { other.kill() }
        others = []
        super.tearDown()  // shelf first, then its server
        for server in servers where server.isRunning { server.terminate() }
        servers = []
    }

    /// `shelf serve` on `folder` (port 0: a free one); the port it listens on.
    private func serve(_ folder: URL, port: Int = 0) throws -> Int {
        let served = try ServeProcess(folder, port: port)
        servers.append(served.process)
        return served.port
    }

    private func app(_ url: String) throws -> TmuxSession {
        let tmux = try TmuxSession(binary: shelfBinary(), data: url, width: 120)
        if session == nil { session = tmux } else { others.append(tmux) }
        return tmux
    }

    func testTwoAppsOnOneServerSeeEachOthersEditsLive() throws {
        let folder = try temporaryDataCopy()
        dataFolder = folder
        let url = "firestore://127.0.0.1:\(try serve(folder))/demo"
        let first = try app(url), second = try app(url)
        for tmux in [first, second] {
            tmux.waitFor(text: "47 documents")
            tmux.send(keys: "2")
            tmux.waitFor(text: "61 documents")
        }
        first.fillNewColour("Served Coral", hex: "#ff7f50")
        first.send(keys: "Enter")
        first.waitFor(text: "Added colors/")
        second.waitFor(text: "62 documents")
        second.send(keys: "/")
        second.type("Served")
        second.waitFor(text: "1 of 62 documents")
        second.waitFor(text: "Served Coral")
        XCTAssertEqual(try documentCount(in: folder, collections: ["colors"]), 62, "the colour is a file of the served folder")
    }

    func testTheAppSaysOfflineWhileTheServerIsAwayAndShowsWhatChangedOnceItIsBack() throws {
        let folder = try temporaryDataCopy()
        dataFolder = folder
        let port = try serve(folder)
        let url = "firestore://127.0.0.1:\(port)/demo"
        let tmux = try app(url)
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        // Stopped as a person stops it: open Listen streams end with UNAVAILABLE and it exits.
        let server = servers.removeLast()
        kill(server.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while server.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(server.isRunning, "shelf serve exits on SIGTERM while the app listens")
        if server.isRunning { server.terminate() }
        tmux.waitFor(text: "Offline: \(url) — ")
        tmux.waitFor(text: "61 documents · offline")
        tmux.send(keys: "j")  // keys go on working on the rows there are
        tmux.waitFor(text: "2/61")
        // Meanwhile another program adds a colour to the folder.
        try Data(##"{"name": "While Away", "color": "#123456"}"##.utf8).write(to: folder.appendingPathComponent("colors/while-away.json"))
        _ = try serve(folder, port: port)
        tmux.waitFor(text: "Back online: \(url)")
        tmux.waitFor(text: "62 documents")
        XCTAssertFalse(tmux.screen().contains("offline"), TmuxSession.framed(tmux.screen()))
    }

    /// A write's latency never holds a key. The server is stopped (SIGSTOP) so the
    /// save waits for it; meanwhile keys are answered and the line says what is being saved.
    func testKeysAreAnsweredWhileASaveWaitsForAServerThatDoesNotAnswer() throws {
        let folder = try temporaryDataCopy()
        dataFolder = folder
        let tmux = try app("firestore://127.0.0.1:\(try serve(folder))/demo")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        tmux.fillNewColour("Patient Coral", hex: "#ff7f50")
        let server = servers[servers.count - 1].processIdentifier
        kill(server, SIGSTOP)
        defer { kill(server, SIGCONT) }
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Saving colors/")
        tmux.send(keys: "j")
        tmux.waitFor(text: "2/61")
        XCTAssertTrue(tmux.screen().contains("Saving colors/"), "still waiting for the server:\n\(TmuxSession.framed(tmux.screen()))")
        kill(server, SIGCONT)
        tmux.waitFor(text: "Added colors/")
        tmux.waitFor(text: "62 documents")
    }
}

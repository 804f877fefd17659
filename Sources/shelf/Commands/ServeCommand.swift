import ArgumentParser
import DocumentStore
import FirestoreServer
import Foundation
import TerminalKit

/// `shelf serve`: Firestore's own protocol (google.firestore.v1 over gRPC) on a folder or a
/// PostgreSQL server, for the official client libraries set up as for Google's emulator.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the data as Firestore's emulator does (google.firestore.v1 over gRPC, and HTTP/1.1 on the same port).",
        discussion: """
            Point a Firestore client at it as at the emulator: FIRESTORE_EMULATOR_HOST=127.0.0.1:8080, \
            or useEmulator(withHost:port:) in the mobile SDKs. Each project is kept apart, as the emulator keeps \
            them: the data is one project's (--project, or the first served, recorded with the data), and \
            every other project's documents are kept beside it (a folder's __projects__/ID; on PostgreSQL \
            the database <database>~ID). The emulator's reset, \
            DELETE /emulator/v1/projects/ID/databases/(default)/documents, really deletes every document of \
            that project's database from the data. Stop with Ctrl-C.
            """)

    @OptionGroup var options: DataOptions

    @Option(name: .long, help: "The address or host name to listen on (127.0.0.1, ::1, localhost, 0.0.0.0 for every IPv4 address).")
    var host = "127.0.0.1"

    @Option(name: .long, parsing: .unconditional, help: "The port to listen on (0: any free port, printed when listening).")
    var port = 8080

    @Option(name: .long, help: "The project whose data --data is (default: the project it was first served for, recorded with the data; the first request's when none is).")
    var project: String?

    @Flag(name: .long, help: "Log every call on standard error (time, method, resource, duration, status); failed calls are logged always.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be within 0...65535, got \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host is empty: give an address such as 127.0.0.1") }
        if let project, !NeighbourStores.isValidProjectID(project) {
            throw ValidationError("--project \(project): a project id is lowercase letters, digits and hyphens (at most 100)")
        }
    }

    func run() throws {
        guard options.data != nil else {
            throw ValidationError("serve needs --data: a folder (made if missing) or a postgresql:// URL")
        }
        // Bound before the data folder is made, so a busy port leaves nothing behind; held
        // from here on, so no other program can take it before the server starts.
        let socket: ListeningSocket
        do { socket = try ListeningSocket.bind(host: host, port: port) } catch { throw ServeProblem(description: "\(error)") }
        let location = try options.location(creatingMissing: true)
        let settings = FirestoreSettings()
        // The main thread waits below; listeners are called on a queue of their own.
        settings.dispatchQueue = DispatchQueue(label: "shelf.serve.callbacks")
        if let project {
            do { try ShelfServer.claim(location.url, for: project) } catch { throw ServeProblem(description: "\(error)") }
        }
        let store = try location.openStore(settings: settings)
        let server = ShelfServer(store: store, at: location.url, project: project, settings: settings, socket: socket, log: ServerLog(verbose: verbose))
        let data = location.displayName
        let stopping = Locked(false)
        let stops = [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // The calls under way may finish; one that does not (a client that vanished
                // mid-call, a query over a huge collection) must not keep the server for ever.
                let first = stopping.withLock { stopping in
                    defer { stopping = true }
                    return !stopping
                }
                guard first else { Self.stopNow("stopped again") }
                FileHandle.standardError.write(Data("shelf serve: stopping (again to stop at once)\n".utf8))
                server.stop()
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.gracePeriod) {
                    Self.stopNow("calls were still running \(Int(Self.gracePeriod)) s after the stop")
                }
            }
            source.resume()
            return source
        }
        defer { stops.forEach { $0.cancel() } }
        do {
            try waitFor {
                try await server.run { address in
                    let bound = socket.resolved.map { " (\($0))" } ?? ""
                    // Unbuffered, so a script reading the pipe learns the address at once.
                    FileHandle.standardOutput.write(Data("Serving Firestore (google.firestore.v1) on \(address)\(bound) for \(data)\nClients: FIRESTORE_EMULATOR_HOST=\(address)\n".utf8))
                }
            }
        } catch {
            throw ServeProblem(description: "cannot serve on \(server.address): \(error)")
        }
    }
}

extension ServeCommand {
    /// How long a stop waits for the calls under way.
    static let gracePeriod: TimeInterval = 10

    /// Ends the process without the calls still running; each commit is atomic on every
    /// backend, so one cut short is simply not made, and its client hears the connection drop.
    static func stopNow(_ why: String) -> Never {
        FileHandle.standardError.write(Data("shelf serve: \(why): stopping without them\n".utf8))
        Foundation.exit(1)
    }
}

private struct ServeProblem: Error, CustomStringConvertible {
    let description: String
}

@testable import DocumentStore
import FirestoreServer
import Foundation
import XCTest

/// A `shelf serve` in this process on a folder, on a free port of 127.0.0.1: the server the
/// store's tests reach as clients (`TemporaryStore` under SHELF_REMOTE_TESTS).
final class ServedFolder: @unchecked Sendable {
    /// The server's own store on the folder.
    let store: Firestore
    let server: ShelfServer
    /// `firestore://127.0.0.1:<port>/test`.
    let url: URL
    /// `127.0.0.1:<port>`.
    let address: String
    private var running: Task<Void, Never>?

    /// `port` 0: a free one; another: that one (a server started again where it was).
    init(root: URL, pollingInterval: TimeInterval = 0.05, port: Int = 0) throws {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "ServedFolder.callbacks")
        settings.pollingInterval = pollingInterval
        store = try Firestore(directory: root, settings: settings)
        let server = try ShelfServer(store: store, at: root, settings: settings, host: "127.0.0.1", port: port)
        self.server = server
        let address = Locked<String?>(nil)
        let started = DispatchSemaphore(value: 0)
        running = Task.detached {
            try? await server.run { listening in
                address.withLock { $0 = listening }
                started.signal()
            }
        }
        guard started.wait(timeout: .now() + 10) == .success, let listening = address.withLock({ $0 }) else {
            server.stop()
            throw DidNotStart()
        }
        self.address = listening
        url = URL(string: "firestore://\(listening)/test")!
    }

    /// A server that does not start fails the test: a start-up regression must never pass unseen.
    struct DidNotStart: Error, CustomStringConvertible {
        var description: String { "shelf serve did not start within 10 seconds" }
    }

    /// Stops taking calls; those running (a Listen stream) go on until their clients end them.
    func stop() { server.stop() }

    /// Stops and waits until the port is free: streams end with `UNAVAILABLE` and connections
    /// close. (Cancelling the serving task instead would drop them more abruptly, but NIO traps
    /// when a connection accepted in that instant is never served: apple/swift-nio#3481.)
    func stopAndWait() {
        stop()
        let stopped = DispatchSemaphore(value: 0)
        Task { [running] in
            await running?.value
            stopped.signal()
        }
        _ = stopped.wait(timeout: .now() + 10)
    }
}

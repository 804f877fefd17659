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

    init(root: URL, pollingInterval: TimeInterval = 0.05) throws {
        let settings = FirestoreSettings()
        settings.dispatchQueue = DispatchQueue(label: "ServedFolder.callbacks")
        settings.pollingInterval = pollingInterval
        store = try Firestore(directory: root, settings: settings)
        let server = ShelfServer(store: store, at: root, settings: settings, host: "127.0.0.1", port: 0)
        self.server = server
        let address = Locked<String?>(nil)
        let started = DispatchSemaphore(value: 0)
        Task.detached {
            try? await server.run { listening in
                address.withLock { $0 = listening }
                started.signal()
            }
        }
        guard started.wait(timeout: .now() + 10) == .success, let listening = address.withLock({ $0 }) else {
            server.stop()
            throw XCTSkip("shelf serve did not start within 10 seconds")
        }
        self.address = listening
        url = URL(string: "firestore://\(listening)/test")!
    }

    func stop() { server.stop() }
}

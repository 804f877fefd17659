import DocumentStore
import Foundation

extension Firestore {
    /// Lets `Firestore(url:)`, `configure(url:)` and the `shelf` command line open
    /// `firestore://host:port/project[/database]`: a store whose documents are on a Firestore
    /// server (`shelf serve`, Google's emulator), over plaintext gRPC. Each call waits at most
    /// `RemoteConnection.deadlineSeconds` (10) for the server; one that cannot be reached is
    /// reported at once, naming host:port. Call once, before opening such a store.
    public static func enableFirestoreServers() {
        ServerSchemes.register(["firestore"], backend: { url in try RemoteBackend(RemoteAddress(url)) })
    }
}

import DocumentStore
import Foundation

extension Firestore {
    /// Lets `Firestore(url:)`, `configure(url:)` and the `shelf` command line open
    /// `firestore://host:port/project[/database]`: a store whose documents are on a Firestore
    /// server (`shelf serve`, Google's emulator), over plaintext gRPC. A read, a write or a list
    /// waits at most 10 seconds for the server's answer, a query or an aggregation 120
    /// (`RemoteConnection.Deadline`), then fails with `.deadlineExceeded`; a server that cannot be
    /// reached fails the call at once with `.unavailable`; both name host:port. Listeners are
    /// told `.unavailable` while the server is away and carry on once it is back. A program that
    /// links this module needs not call it: the first such URL, or `useEmulator`, finds it.
    public static func enableFirestoreServers() {
        ServerSchemes.register(["firestore"]) { url in try RemoteBackend(RemoteAddress(url)) }
        ServerSchemes.register(neighboursOf: ["firestore"], RemoteAddress.neighbours)
    }
}

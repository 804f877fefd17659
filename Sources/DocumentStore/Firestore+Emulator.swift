import Foundation

/// Firebase's way to a Firestore server other than Google's cloud: `useEmulator(withHost:port:)`
/// or `settings.host`, before the store's first use. DocumentStore speaks to such a server
/// (`shelf serve`, Google's emulator) over plaintext gRPC through the DocumentStoreRemote module,
/// which the program must link (its product among the target's dependencies; no import needed).
extension Firestore {
    /// Firebase's default host: Google's cloud, which DocumentStore does not reach.
    static let cloudHost = "firestore.googleapis.com"

    /// Makes this store a client of the Firestore server at `host:port`, over plaintext gRPC
    /// (as every emulator speaks). Call it before any other use of the store, as Firebase
    /// requires: later, or on a store opened on a folder or URL, it is refused with a message
    /// on standard error and the store stays where it is.
    public func useEmulator(withHost host: String, port: Int) {
        guard !host.isEmpty else { return StoreConfiguration.complain("useEmulator(withHost:port:) was given an empty host; expected a host name or address") }
        guard (0...65535).contains(port) else { return StoreConfiguration.complain("useEmulator(withHost:port:) was given the port \(port); expected 0 to 65535") }
        let settings = self.settings
        settings.host = (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"
        settings.isSSLEnabled = false
        self.settings = settings
    }
}

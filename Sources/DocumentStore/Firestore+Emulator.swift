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
        guard !host.isEmpty else { return complain("useEmulator(withHost:port:) was given an empty host; expected a host name or address") }
        guard (0...65535).contains(port) else { return complain("useEmulator(withHost:port:) was given the port \(port); expected 0 to 65535") }
        let settings = self.settings
        settings.host = (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"
        settings.isSSLEnabled = false
        self.settings = settings
    }

    /// Opens, at first use, the database `database` of `project` on the server `server` names
    /// (or `FIRESTORE_EMULATOR_HOST` when it names Google's cloud): a store whose every call
    /// fails saying why when that is not possible.
    static func openServer(_ server: StorePlace.Server, project: String, database: String) -> StorePlace.Opened {
        var host = server.host, isSSLEnabled = server.isSSLEnabled
        if host == cloudHost, let emulator = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"], !emulator.isEmpty {
            (host, isSSLEnabled) = (emulator, false)
        }
        let text = "firestore://\(host)/\(project)" + (database == defaultDatabaseID ? "" : "/\(database)")
        let url = URL(string: text)
        do {
            guard host != cloudHost else {
                throw FirestoreErrorCode(.failedPrecondition, "Firestore.firestore() has no place for its documents: DocumentStore does not reach Google's cloud (\(cloudHost)). Call Firestore.configure(directory:) for a folder, or useEmulator(withHost:port:) before using the store for a Firestore server (shelf serve, Google's emulator), or set FIRESTORE_EMULATOR_HOST=host:port")
            }
            guard !isSSLEnabled else {
                throw FirestoreErrorCode(.unimplemented, "the Firestore server at \(host): DocumentStore speaks plaintext gRPC only, as emulators do; set settings.isSSLEnabled = false (useEmulator(withHost:port:) does)")
            }
            guard let url, url.host != nil else {
                throw FirestoreErrorCode(.invalidArgument, "settings.host \"\(host)\" with project \"\(project)\": expected host:port and a project id of letters, digits and hyphens")
            }
            let backend = try ServerSchemes.openBackend(url)
            return StorePlace.Opened(backend: backend, directory: URL(string: backend.description) ?? url, location: url)
        } catch {
            // Named as a server, never as a folder, even when the host makes no URL.
            let nowhere = url ?? URL(string: "firestore://\(cloudHost)") ?? URL(fileURLWithPath: "/")
            return StorePlace.Opened(backend: UnopenableBackend(description: text, reason: publicError(error)), directory: nowhere, location: nowhere)
        }
    }

    /// A database of `app` (one configured without a place) that opens the server its settings
    /// name at first use.
    convenience init(waitingForSettingsIn app: FirebaseApp, databaseID: String) {
        let settings = app.settingsForDatabases
        let project = app.options.projectID ?? FirebaseOptions.defaultProjectID
        let place = StorePlace(waitingFor: settings) { server in Firestore.openServer(server, project: project, database: databaseID) }
        self.init(place: place, settings: settings, app: app, databaseID: databaseID)
    }
}

import Foundation

/// Where a store's documents are: its backend, with the folder or URL it was opened on.
///
/// A store opened on a folder or a URL has its place from the start. A database of an app
/// configured without one (`FirebaseApp.configure()`, as Firebase's apps begin) waits for its
/// first use, so its settings can name a server first (`useEmulator(withHost:port:)`,
/// `settings.host`), as a Firebase instance starts its client only when first used.
final class StorePlace: Sendable {
    struct Opened: Sendable {
        let backend: StorageBackend
        /// The folder, or the server's URL without its password (`Firestore.directory`).
        let directory: URL
        /// The folder, or the server's URL with its password, beside which named databases are.
        let location: URL
    }

    /// The server a waiting place will open: the settings' `host` and `isSSLEnabled`.
    struct Server: Sendable, Equatable {
        var host: String
        var isSSLEnabled: Bool

        init(_ settings: FirestoreSettings) {
            host = settings.host
            isSSLEnabled = settings.isSSLEnabled
        }
    }

    private enum Phase {
        /// Opened by `open` at first use, on the server the settings name by then.
        case waiting(Server, open: @Sendable (Server) -> Opened)
        /// Opened, with the server the settings named then (for a place given from the
        /// start, the settings it was given with).
        case opened(Opened, Server)
    }

    private let phase: Locked<Phase>

    init(_ opened: Opened, settings: FirestoreSettings) {
        phase = Locked(.opened(opened, Server(settings)))
    }

    /// A place opened at first use by `open`, on the server the settings name by then.
    init(waitingFor settings: FirestoreSettings, open: @escaping @Sendable (Server) -> Opened) {
        phase = Locked(.waiting(Server(settings), open: open))
    }

    /// The place, opened now if it was waiting.
    var opened: Opened {
        phase.withLock { phase in
            switch phase {
            case .opened(let opened, _):
                return opened
            case .waiting(let server, let open):
                let opened = open(server)
                phase = .opened(opened, server)
                return opened
            }
        }
    }

    /// The backend if the place was opened, without opening it.
    var openedBackend: StorageBackend? {
        phase.withLock { phase in
            guard case .opened(let opened, _) = phase else { return nil }
            return opened.backend
        }
    }

    /// Takes the server new settings name while the place waits. Once it is open, returns
    /// false if they name another server than it opened on (which the caller refuses, as
    /// Firebase refuses settings once its instance started).
    func follow(_ settings: FirestoreSettings) -> Bool {
        phase.withLock { phase in
            switch phase {
            case .waiting(_, let open):
                phase = .waiting(Server(settings), open: open)
                return true
            case .opened(_, let server):
                return Server(settings) == server
            }
        }
    }
}

/// Opening a place: a folder, a server's URL, or a client of the Firestore server a placeless
/// app's settings name (`FirebaseApp.database(_:)`).
extension StorePlace.Opened {
    /// A file URL is a folder; another URL a server, opened by the module of its scheme.
    static func open(_ url: URL) throws -> Self {
        if url.isFileURL { return try folder(url) }
        let backend = try ServerSchemes.openBackend(url)
        return Self(backend: backend, directory: URL(string: backend.description) ?? url, location: url)
    }

    /// A folder of JSON files, made when missing (its parent must exist).
    static func folder(_ folder: URL) throws -> Self {
        do { return Self(backend: try FolderBackend(root: folder), directory: folder, location: folder) } catch { throw error.firestoreError }
    }

    /// Opens, at first use, the database `database` of `project` on the server `server` names
    /// (or `FIRESTORE_EMULATOR_HOST` when it names Google's cloud): a store whose every call
    /// fails saying why when that is not possible.
    static func client(of server: StorePlace.Server, project: String, database: String) -> Self {
        var host = server.host, isSSLEnabled = server.isSSLEnabled
        if host == Firestore.cloudHost, let emulator = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"], !emulator.isEmpty {
            (host, isSSLEnabled) = (emulator, false)
        }
        let text = "firestore://\(host)/\(project)" + (database == Firestore.defaultDatabaseID ? "" : "/\(database)")
        let url = URL(string: text)
        do {
            guard host != Firestore.cloudHost else {
                throw FirestoreErrorCode(.failedPrecondition, "Firestore.firestore() has no place for its documents: DocumentStore does not reach Google's cloud (\(Firestore.cloudHost)). Call Firestore.configure(directory:) for a folder, or useEmulator(withHost:port:) before using the store for a Firestore server (shelf serve, Google's emulator), or set FIRESTORE_EMULATOR_HOST=host:port")
            }
            guard !isSSLEnabled else {
                throw FirestoreErrorCode(.unimplemented, "the Firestore server at \(host): DocumentStore speaks plaintext gRPC only, as emulators do; set settings.isSSLEnabled = false (useEmulator(withHost:port:) does)")
            }
            guard let url, url.host != nil else {
                throw FirestoreErrorCode(.invalidArgument, "settings.host \"\(host)\" with project \"\(project)\": expected host:port and a project id of letters, digits and hyphens")
            }
            return try open(url)
        } catch {
            // Named as a server, never as a folder, even when the host makes no URL.
            let nowhere = url ?? URL(string: "firestore://\(Firestore.cloudHost)") ?? URL(fileURLWithPath: "/")
            return Self(backend: UnopenableBackend(description: text, reason: publicError(error)), directory: nowhere, location: nowhere)
        }
    }
}

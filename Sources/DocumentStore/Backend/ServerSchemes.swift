import Foundation

/// Who opens a store URL that is not a file URL, by its scheme: filled by the modules that
/// bring a server backend (DocumentStorePostgres's `Firestore.enablePostgreSQL()`,
/// DocumentStoreRemote's `Firestore.enableFirestoreServers()`), so the core links none of them.
/// A program that links such a module needs not call it: the first URL of its scheme finds the
/// module by its class's name at run time (as Firebase finds its SDKs' components), so Firebase
/// code runs with only its import changed.
package enum ServerSchemes {
    package typealias Opener = @Sendable (URL) throws -> DocumentServer
    /// Opens a backend that is no `DocumentServer` (a client of a Firestore server).
    package typealias BackendOpener = @Sendable (URL) throws -> StorageBackend

    private static let openers = Locked<[String: BackendOpener]>([:])

    package static func register(_ schemes: [String], _ opener: @escaping Opener) {
        register(schemes, backend: { try opener($0) })
    }

    package static func register(_ schemes: [String], backend opener: @escaping BackendOpener) {
        openers.withLock { openers in
            for scheme in schemes { openers[scheme.lowercased()] = opener }
        }
    }

    /// Where a server keeps the named database beside the one at a URL (see
    /// `Firestore.location(ofDatabase:besides:)`).
    package typealias DatabaseLocator = @Sendable (_ name: String, _ besides: URL) throws -> URL

    private static let locators = Locked<[String: DatabaseLocator]>([:])

    package static func register(namedDatabasesOf schemes: [String], _ locator: @escaping DatabaseLocator) {
        locators.withLock { locators in
            for scheme in schemes { locators[scheme.lowercased()] = locator }
        }
    }

    /// The URL of the named database `name` beside the store at `url`.
    static func location(ofDatabase name: String, besides url: URL) throws -> URL {
        let scheme = url.scheme?.lowercased() ?? ""
        enableLinkedModule(for: scheme)
        guard let locator = locators.withLock({ $0[scheme] }) else {
            if openers.withLock({ $0[scheme] }) == nil { throw unknownScheme(url) }
            throw FirestoreErrorCode(.unimplemented, "database \"\(name)\": stores at \(scheme):// URLs have no named databases")
        }
        return try locator(name, url)
    }

    /// The backend for a URL that is not a file URL; throws, naming what to import, when no
    /// module took its scheme.
    static func openBackend(_ url: URL) throws -> StorageBackend {
        let scheme = url.scheme?.lowercased() ?? ""
        enableLinkedModule(for: scheme)
        guard let opener = openers.withLock({ $0[scheme] }) else { throw unknownScheme(url) }
        return try opener(url)
    }

    /// The class each backend module names itself by, per scheme.
    package static let moduleClasses = [
        "postgresql": "DocumentStorePostgres.PostgreSQLScheme",
        "postgres": "DocumentStorePostgres.PostgreSQLScheme",
        "firestore": "DocumentStoreRemote.FirestoreServerScheme",
    ]

    /// Registers the module for `scheme` if the program links it and it did not register yet.
    private static func enableLinkedModule(for scheme: String) {
        guard openers.withLock({ $0[scheme] == nil }), let name = moduleClasses[scheme], let module = NSClassFromString(name) as? ServerSchemeModule.Type else { return }
        module.enable()
    }

    /// Why `url` cannot be opened when no module took its scheme.
    static func unknownScheme(_ url: URL) -> FirestoreErrorCode {
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == "postgresql" || scheme == "postgres" {
            return FirestoreErrorCode(.invalidArgument, "\(scheme):// URLs need the DocumentStorePostgres module: add its product to your target's dependencies")
        }
        if scheme == "firestore" {
            return FirestoreErrorCode(.invalidArgument, "firestore:// URLs need the DocumentStoreRemote module: add its product to your target's dependencies")
        }
        return FirestoreErrorCode(.invalidArgument, "cannot open a store at \(url.scheme ?? "")://\(url.host ?? "")…: expected a file URL (a folder), a postgresql://user:password@host:port/database URL or a firestore://host:port/project URL")
    }
}

/// A backend module's entry point, found by its class name (`ServerSchemes`): registers the
/// module's schemes.
package protocol ServerSchemeModule: AnyObject {
    static func enable()
}

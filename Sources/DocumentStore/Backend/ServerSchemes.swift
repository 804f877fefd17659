import Foundation

/// Who opens a store URL that is not a file URL, by its scheme: filled by the modules that
/// bring a server backend (DocumentStorePostgres's `Firestore.enablePostgreSQL()`,
/// DocumentStoreRemote's `Firestore.enableFirestoreServers()`), so the core links none of them.
/// A program that links such a module needs not call it: the first URL of its scheme finds the
/// module by its class's name at run time (as Firebase finds its SDKs' components), so Firebase
/// code runs with only its import changed.
package enum ServerSchemes {
    package typealias Opener = @Sendable (URL) throws -> StorageBackend

    private static let openers = Locked<[String: Opener]>([:])

    package static func register(_ schemes: [String], _ opener: @escaping Opener) {
        openers.withLock { openers in
            for scheme in schemes { openers[scheme.lowercased()] = opener }
        }
    }

    /// Where a server keeps the stores beside the one at a URL, and whose data that one is:
    /// Firestore's named databases (`NeighbourStores.location(ofDatabase:besides:)`), other projects'
    /// data (`NeighbourStores.location(ofProject:besides:)`) and the project that owns it
    /// (`NeighbourStores.owner(of:claiming:)`).
    package struct Neighbours: Sendable {
        package var database: @Sendable (_ name: String, _ besides: URL) throws -> URL
        package var project: @Sendable (_ id: String, _ besides: URL) throws -> URL
        package var owner: @Sendable (_ claiming: String, _ of: URL) throws -> String

        package init(database: @escaping @Sendable (_ name: String, _ besides: URL) throws -> URL,
                     project: @escaping @Sendable (_ id: String, _ besides: URL) throws -> URL,
                     owner: @escaping @Sendable (_ claiming: String, _ of: URL) throws -> String) {
            self.database = database
            self.project = project
            self.owner = owner
        }
    }

    private static let neighbours = Locked<[String: Neighbours]>([:])

    package static func register(neighboursOf schemes: [String], _ found: Neighbours) {
        neighbours.withLock { neighbours in
            for scheme in schemes { neighbours[scheme.lowercased()] = found }
        }
    }

    /// The neighbours of the store at `url`; `what` names the asker in the error when the
    /// scheme has none.
    static func neighbours(of url: URL, for what: String) throws -> Neighbours {
        let scheme = url.scheme?.lowercased() ?? ""
        enableLinkedModule(for: scheme)
        guard let found = neighbours.withLock({ $0[scheme] }) else {
            if openers.withLock({ $0[scheme] }) == nil { throw unknownScheme(url) }
            throw FirestoreErrorCode(.unimplemented, "\(what): stores at \(scheme):// URLs have no stores beside them")
        }
        return found
    }

    /// The backend for a URL that is not a file URL; throws, naming what to import, when no
    /// module took its scheme.
    static func openBackend(_ url: URL) throws -> StorageBackend {
        let scheme = url.scheme?.lowercased() ?? ""
        enableLinkedModule(for: scheme)
        guard let opener = openers.withLock({ $0[scheme] }) else { throw unknownScheme(url) }
        return try opener(url)
    }

    /// A scheme of stores on a server: the module that opens it, the class that module names
    /// itself by, and the form of its URLs, for messages.
    package struct Scheme: Sendable {
        package let module: String
        package let moduleClass: String
        package let form: String
    }

    /// Every scheme of a store on a server, the one table the command line asks too.
    package static let known: [String: Scheme] = {
        let postgres = Scheme(module: "DocumentStorePostgres", moduleClass: "DocumentStorePostgres.PostgreSQLScheme",
                              form: "postgresql://user:password@host:port/database")
        let firestore = Scheme(module: "DocumentStoreRemote", moduleClass: "DocumentStoreRemote.FirestoreServerScheme",
                               form: "firestore://host:port/project[/database]")
        return ["postgresql": postgres, "postgres": postgres, "firestore": firestore]
    }()

    /// The URLs of stores on servers, for messages.
    package static let serverURLs = "a \(known["postgresql"]!.form) URL or a \(known["firestore"]!.form) URL"

    /// Registers the module for `scheme` if the program links it and it did not register yet.
    private static func enableLinkedModule(for scheme: String) {
        guard openers.withLock({ $0[scheme] == nil }), let name = known[scheme]?.moduleClass,
              let module = NSClassFromString(name) as? ServerSchemeModule.Type else { return }
        module.enable()
    }

    /// Why `url` cannot be opened when no module took its scheme.
    static func unknownScheme(_ url: URL) -> FirestoreErrorCode {
        let scheme = url.scheme?.lowercased() ?? ""
        if let known = known[scheme] {
            return FirestoreErrorCode(.invalidArgument, "\(scheme):// URLs need the \(known.module) module: add its product to your target's dependencies")
        }
        return FirestoreErrorCode(.invalidArgument, "cannot open a store at \(url.scheme ?? "")://\(url.host ?? "")…: expected a file URL (a folder), \(serverURLs)")
    }
}

/// A backend module's entry point, found by its class name (`ServerSchemes`): registers the
/// module's schemes.
package protocol ServerSchemeModule: AnyObject {
    static func enable()
}

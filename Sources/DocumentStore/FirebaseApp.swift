import Foundation

/// Firebase's `FirebaseApp`, as far as a store needs one: a name and the place its databases
/// live. Firebase's code reaches databases through an app (`Firestore.firestore(app:database:)`,
/// `db.app`); here the default app is the one `Firestore.configure(directory:)` or
/// `configure(url:)` set, and every other store has an app of its own, so named databases can be
/// opened beside any store. An app keeps each database it opened, as Firebase caches them, until
/// that database is terminated.
public final class FirebaseApp: @unchecked Sendable {
    /// Firebase's name of the default app.
    public static let defaultAppName = "__FIRAPP_DEFAULT"

    /// The default app's name, or, for a store's own app, where the store is.
    public let name: String
    /// Where the `(default)` database is: a folder, or a server's URL with its password.
    let location: URL
    /// The same without a password, for messages and `Firestore.directory`.
    let directory: URL
    /// The settings each database this app opens starts with.
    let settingsForDatabases: FirestoreSettings
    private let databases = Locked(Databases())

    private struct Databases {
        /// The store this app was made for: not kept alive by its own app.
        weak var own: Firestore?
        /// Databases by name, kept as Firebase keeps its instances.
        var opened: [String: Firestore] = [:]
    }

    init(name: String, location: URL, directory: URL, settings: FirestoreSettings) {
        self.name = name
        self.location = location
        self.directory = directory
        settingsForDatabases = settings.copy() as! FirestoreSettings
    }

    private static let defaultApp = Locked<FirebaseApp?>(nil)

    /// The default app: the one `Firestore.configure` set; nil before.
    public static func app() -> FirebaseApp? {
        defaultApp.withLock { $0 }
    }

    /// Makes `store` the `(default)` database of a new default app. The old default app lets
    /// go of the databases it opened (they keep working for whoever holds them).
    static func configureDefault(with store: Firestore) {
        let app = FirebaseApp(name: defaultAppName, location: store.location, directory: store.directory, settings: store.settings)
        app.databases.withLock { $0.opened[Firestore.defaultDatabaseID] = store }
        store.join(app)
        let old = defaultApp.withLock { apps in
            defer { apps = app }
            return apps
        }
        old?.databases.withLock { $0.opened = [:] }
    }

    /// Makes `store` this app's `(default)` database without keeping it alive (the store keeps
    /// its own app alive).
    func holdAsDefault(_ store: Firestore) {
        databases.withLock { $0.own = store }
    }

    /// The database `name`, opened beside the `(default)` one on first use and kept. A name
    /// Firestore refuses, or a place that cannot be opened, gives a store whose every read,
    /// write and listener fails saying why, as Firebase's do against a server that refuses.
    func database(_ name: String) -> Firestore {
        if let store = databases.withLock({ $0.opened[name] ?? (name == Firestore.defaultDatabaseID ? $0.own : nil) }) {
            return store
        }
        let store: Firestore
        do {
            store = try Firestore(opening: try Firestore.location(ofDatabase: name, besides: location), settings: settingsForDatabases, app: self, databaseID: name)
        } catch {
            store = Firestore(unopenable: name, reason: error, app: self)
        }
        return databases.withLock { databases in
            if let existing = databases.opened[name] { return existing }
            databases.opened[name] = store
            return store
        }
    }

    /// Forgets a terminated database, so asking for it again opens it anew.
    func forget(_ store: Firestore) {
        databases.withLock { databases in
            databases.opened = databases.opened.filter { $0.value !== store }
            if databases.own === store { databases.own = nil }
        }
    }
}

import Foundation

/// Firebase's `FirebaseApp`, as far as a store needs one: a name, a project and the place its
/// databases live. Firebase's code reaches databases through an app
/// (`Firestore.firestore(app:database:)`, `db.app`); here the default app is the one
/// `Firestore.configure(directory:)` or `configure(url:)` set, or, as Firebase's apps begin,
/// `FirebaseApp.configure()`: an app without a place, whose databases are clients of the
/// server their settings name at first use (`useEmulator(withHost:port:)`). Every other store
/// has an app of its own, so named databases can be opened beside any store. An app keeps each
/// database it opened, as Firebase caches them, until that database is terminated.
public final class FirebaseApp: @unchecked Sendable {
    /// Firebase's name of the default app.
    public static let defaultAppName = "__FIRAPP_DEFAULT"

    /// The default app's name, or, for a store's own app, where the store is.
    public let name: String
    /// Firebase's options: here only `projectID` is used, as the project a server is asked for.
    public let options: FirebaseOptions
    /// Where the `(default)` database is: a folder, or a server's URL with its password; nil
    /// for an app configured without a place, whose databases wait for their settings.
    let location: URL?
    /// The same without a password, for messages and `Firestore.directory`.
    let directory: URL?
    /// The settings each database this app opens starts with.
    let settingsForDatabases: FirestoreSettings
    private let databases = Locked(Databases())

    private struct Databases {
        /// The store this app was made for: not kept alive by its own app.
        weak var own: Firestore?
        /// Databases by name, kept as Firebase keeps its instances.
        var opened: [String: Firestore] = [:]
    }

    init(name: String, options: FirebaseOptions = FirebaseOptions.fromEnvironment(), location: URL?, directory: URL?,
         settings: FirestoreSettings) {
        self.name = name
        self.options = options
        self.location = location
        self.directory = directory
        settingsForDatabases = settings.copy() as! FirestoreSettings
    }

    private static let defaultApp = Locked<FirebaseApp?>(nil)

    /// The default app: the one `Firestore.configure` set; nil before.
    public static func app() -> FirebaseApp? {
        defaultApp.withLock { $0 }
    }

    /// Makes the default app one whose databases are clients of the server their settings
    /// name, set before their first use (`useEmulator(withHost:port:)`, `settings.host`), or
    /// of `FIRESTORE_EMULATOR_HOST`, as Google's SDKs read it; with neither, every call on
    /// them fails saying so. The project is `GCLOUD_PROJECT`'s, or `demo-shelf`.
    public static func configure() {
        configure(options: FirebaseOptions.fromEnvironment())
    }

    /// As `configure()`, with the project `options.projectID`.
    public static func configure(options: FirebaseOptions) {
        replaceDefault(with: placeless(options))
    }

    /// The default app, configured as `configure()` does if none was: where Firebase would
    /// stop the program, its stores then say what is missing.
    static func configureIfNeeded() -> FirebaseApp {
        defaultApp.withLock { app in
            if let app { return app }
            let made = placeless(.fromEnvironment())
            app = made
            return made
        }
    }

    /// A default app without a place: its databases wait for their settings.
    private static func placeless(_ options: FirebaseOptions) -> FirebaseApp {
        FirebaseApp(name: defaultAppName, options: options, location: nil, directory: nil, settings: FirestoreSettings())
    }

    /// Makes `store` the `(default)` database of a new default app (`Firestore.configure`);
    /// its named databases are then the default app's.
    static func configureDefault(with store: Firestore) -> Firestore {
        let app = FirebaseApp(name: defaultAppName, location: store.location, directory: store.directory, settings: store.settings)
        app.databases.withLock { $0.opened[Firestore.defaultDatabaseID] = store }
        store.configuration.app = app
        replaceDefault(with: app)
        return store
    }

    /// The old default app lets go of the databases it opened (they keep working for whoever
    /// holds them).
    private static func replaceDefault(with app: FirebaseApp) {
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
        if let location {
            do {
                store = try Firestore(opening: try NeighbourStores.location(ofDatabase: name, besides: location), settings: settingsForDatabases, app: self, databaseID: name)
            } catch {
                // Every read, write and listener of it fails with the reason.
                let backend = UnopenableBackend(description: "database \"\(name)\"", reason: publicError(error))
                store = Firestore(opened: StorePlace.Opened(backend: backend, directory: directory ?? location, location: location),
                                  settings: settingsForDatabases, app: self, databaseID: name)
            }
        } else {
            // Without a place: a client of the server its settings name at its first use.
            let project = options.projectID ?? FirebaseOptions.defaultProjectID
            let place = StorePlace(waitingFor: settingsForDatabases) { server in .client(of: server, project: project, database: name) }
            store = Firestore(place: place, settings: settingsForDatabases, app: self, databaseID: name)
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

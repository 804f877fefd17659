// DocumentStore: Firebase Firestore's Swift API on Linux, over a store's backend: a folder of
// JSON files (Folder/), or, through the modules that bring them, PostgreSQL and a Firestore
// server. It owns Firestore's semantics once for every backend: paths and values, queries and
// their evaluation, commits (`CommitPlan`), transactions and their locks, listeners (`Watcher`),
// aggregations, bundles, reads at a past time. Backends meet it at `StorageBackend`.

import Foundation

/// A document database with the Firebase Firestore SDK's API, on a folder of JSON files or
/// on a database server (`Firestore(url:)` with a postgresql:// URL and DocumentStorePostgres).
///
/// In a folder, reads and writes go straight to the files; listeners poll them on a Dispatch
/// timer, so changes made by other programs (an editor, a script, another Shelf) are delivered
/// too. On a server, listeners are told of every client's commits by the server.
public final class Firestore: @unchecked Sendable {
    /// Where the documents live: opened with the store, or, for a database of an app configured
    /// without a place (`FirebaseApp.configure()`), at first use (see `StorePlace`).
    private let place: StorePlace
    /// Which of its app's databases this store is: "(default)", or a named database's id.
    let databaseID: String
    /// The folder holding the store's collections; for a store on a server, its URL without
    /// the password. To tell the two apart, ask `fileURL(for:)`; to name the place, `placeName`.
    public var directory: URL { place.opened.directory }

    /// Ours: where the documents are, for people: the folder's path, or the server's URL
    /// without its password.
    public var placeName: String { backend.description }
    /// Ours: which ids the store holds (a folder's are fewer than Firestore's).
    package var idRules: IDRules { (backend as? IDRestrictingStorage)?.idRules ?? .firestore }

    /// Ours: the file of the document (`books/dune.json`), or the folder of the collection, at
    /// `path` in a store whose documents are files (an editor can open them); nil on a server,
    /// or for a path that is not valid.
    public func fileURL(for path: String) -> URL? {
        guard let parsed = (try? ResourcePath.parse(path, expectDocument: true, rules: idRules))
                ?? (try? ResourcePath.parse(path, expectDocument: false, rules: idRules)) else {
            return nil
        }
        return fileStorage?.fileURL(for: parsed)
    }
    /// Where the store was opened: `directory`, or the server's URL with its password, from
    /// which its app finds the named databases beside it.
    var location: URL { place.opened.location }
    /// Where the documents live (see `StorageBackend`).
    var backend: StorageBackend { place.opened.backend }
    /// The backend's capabilities, where it has them (`StorageCapabilities.swift`).
    var fileStorage: FileStorage? { backend as? FileStorage }
    var queryingStorage: QueryingStorage? { backend as? QueryingStorage }
    /// Ours: whether the documents are files a person and other programs may touch (a folder),
    /// rather than rows on a server: what the app asks instead of probing for a file's URL.
    package var keepsDocumentsAsFiles: Bool { fileStorage != nil }
    /// The settings, the write error handler, the app (`StoreConfiguration`).
    let configuration: StoreConfiguration
    /// The locks of this store's transactions and commits, whoever makes them (the Swift API,
    /// `shelf serve`): one table, so they wait for each other.
    package let transactionLocks: TransactionLocks
    /// The watchers this store's listeners share.
    let watchers = WatcherRegistry()
    /// Called after each round of delivered snapshots (`addSnapshotsInSyncListener`).
    let snapshotsInSync = SnapshotsInSyncListeners()
    /// The named queries of the bundles loaded into this store (`getQuery(named:)`).
    let namedQueries = Locked<[String: Query]>([:])

    /// Opens a store on `directory`, creating the folder if it is missing (its parent must exist).
    public convenience init(directory: URL, settings: FirestoreSettings = FirestoreSettings()) throws {
        self.init(opened: try .folder(directory), settings: settings, app: nil, databaseID: Firestore.defaultDatabaseID)
    }

    /// Opens a store at `url`: a file URL is a folder (as `init(directory:)`);
    /// `postgresql://user:password@host:port/database` is a PostgreSQL server, once
    /// DocumentStorePostgres is imported and `Firestore.enablePostgreSQL()` was called.
    public convenience init(url: URL, settings: FirestoreSettings = FirestoreSettings()) throws {
        try self.init(opening: url, settings: settings, app: nil)
    }

    /// As `init(url:)`, for the database `databaseID` of the app `app` (nil: an app of the
    /// store's own).
    convenience init(opening url: URL, settings: FirestoreSettings, app: FirebaseApp?, databaseID: String = Firestore.defaultDatabaseID) throws {
        self.init(opened: try .open(url), settings: settings, app: app, databaseID: databaseID)
    }

    /// A store on `opened`, of `app`, or of an app of its own when `app` is nil.
    convenience init(opened: StorePlace.Opened, settings: FirestoreSettings, app: FirebaseApp?, databaseID: String) {
        let owner = app ?? FirebaseApp(name: opened.backend.description, location: opened.location, directory: opened.directory, settings: settings)
        self.init(place: StorePlace(opened, settings: settings), settings: settings, app: owner, databaseID: databaseID)
        if app == nil { owner.holdAsDefault(self) }
    }

    init(place: StorePlace, settings: FirestoreSettings, app: FirebaseApp, databaseID: String) {
        self.place = place
        transactionLocks = TransactionLocks { (place.opened.backend as? LockingStorage)?.storageLocks }
        self.databaseID = databaseID
        configuration = StoreConfiguration(settings: settings, app: app)
    }

    deinit { place.openedBackend?.close() }

    /// Callback queue and polling interval; set before adding listeners to affect them. A copy,
    /// as Firebase's: change it and assign it back.
    /// The host and `isSSLEnabled` may change only before the store is first used, as
    /// Firebase's (`useEmulator(withHost:port:)`); later, such an assignment is refused with a
    /// message on standard error, and the settings stay as they were.
    public var settings: FirestoreSettings {
        get { configuration.settings }
        set {
            guard place.follow(newValue) else {
                return StoreConfiguration.complain("the settings' host (\(newValue.host), SSL \(newValue.isSSLEnabled ? "on" : "off")) cannot change once the store is in use: it is at \(directory.absoluteString); the new settings were refused. Set them before any other call on the store.")
            }
            configuration.settings = newValue
        }
    }

    var callbackQueue: DispatchQueue { configuration.callbackQueue }

    /// Ours: where the errors of the plain write forms go (`ref.setData(data)` and the like,
    /// which cannot throw). Called on the callback queue. When nil, they are printed to
    /// standard error, so no write fails silently.
    public var writeErrorHandler: (@Sendable (Error) -> Void)? {
        get { configuration.writeErrorHandler }
        set { configuration.writeErrorHandler = newValue }
    }

    // MARK: Committing

    /// The one way documents change (`CommitPath.commit`).
    @discardableResult
    func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument] = [:],
                lockedBy owner: LockOwner? = nil) throws -> [WrittenDocument] {
        try CommitPath(store: self).commit(writes, expecting: expected, lockedBy: owner)
    }

    /// Commits writes made ready ahead (`WriteBatch.prepare`), without locks (`CommitPath`).
    func commit(_ prepared: PreparedCommit) throws {
        try CommitPath(store: self).commit(prepared)
    }

    /// False for a store whose writes are not this program's own (`shelf serve`'s, which
    /// commits its clients' writes): its listeners get every write committed only.
    package var showsPendingWrites: Bool {
        get { configuration.showsPendingWrites }
        set { configuration.showsPendingWrites = newValue }
    }

    /// True when the folder cannot be written; writes will fail with a clear error.
    public var isReadOnly: Bool { backend.isReadOnly }

    /// For `shelf check`: the temporary files killed writers had left beside documents (older
    /// than a minute) that opening this store removed, by path in the folder. None on a server.
    package var strayTemporaryFilesRemoved: [String] {
        fileStorage?.strayTemporaryFilesRemoved(sweepingNow: false) ?? []
    }

    /// For `shelf check` and `shelf list`: sweeps the whole folder for those temporary files
    /// now, also one Shelf never wrote to (which opening leaves alone), and returns every one
    /// this store has removed, by path in the folder. None on a server.
    package func sweepStrayTemporaryFiles() -> [String] {
        fileStorage?.strayTemporaryFilesRemoved(sweepingNow: true) ?? []
    }

    // MARK: The default store

    /// Sets the store that `Firestore.firestore()` returns, as `FirebaseApp.configure()` does.
    @discardableResult
    public static func configure(directory: URL, settings: FirestoreSettings = FirestoreSettings()) throws -> Firestore {
        FirebaseApp.configureDefault(with: try Firestore(directory: directory, settings: settings))
    }

    /// As `configure(directory:)`, with a folder's file URL or a postgresql:// URL (see `init(url:)`).
    @discardableResult
    public static func configure(url: URL, settings: FirestoreSettings = FirestoreSettings()) throws -> Firestore {
        FirebaseApp.configureDefault(with: try Firestore(url: url, settings: settings))
    }

    /// The app this store belongs to: the default app for the store set by `configure`, the
    /// app named databases were opened from, or else an app of the store's own, so
    /// `Firestore.firestore(app: db.app, database: "other")` opens a database beside any store.
    public var app: FirebaseApp {
        configuration.app
    }

    /// The `(default)` database of the default app: the store set by `configure(directory:)`
    /// or `configure(url:)`, or, after `FirebaseApp.configure()`, a client of the server its
    /// settings name (`useEmulator(withHost:port:)`). Once it is terminated, a new one on the
    /// same place, as Firebase's `firestore()` after `terminate`.
    @discardableResult
    public static func firestore() -> Firestore {
        firestore(app: FirebaseApp.configureIfNeeded(), database: defaultDatabaseID)
    }

    // MARK: References

    /// A collection by path ("books", or "books/hitchhiker/reviews"). An invalid path gives a
    /// reference whose every operation fails with an error that says why.
    @discardableResult
    public func collection(_ collectionPath: String) -> CollectionReference {
        do {
            return CollectionReference(firestore: self, path: try ResourcePath.parse(collectionPath, expectDocument: false, rules: idRules))
        } catch {
            return CollectionReference(firestore: self, path: ResourcePath(segments: [collectionPath]), invalid: error)
        }
    }

    /// Every collection with this id, at any depth ("reviews" matches `reviews`,
    /// `books/dune/reviews` and deeper ones), as one query. An id with a "/" gives a query
    /// whose every read reports why.
    @discardableResult
    public func collectionGroup(_ collectionID: String) -> Query {
        var problem: Error?
        if collectionID.utf8.contains(UInt8(ascii: "/")) {
            problem = FirestoreErrorCode(.invalidArgument, "Invalid collection ID (\(collectionID)). Collection IDs must not contain / in them.")
        } else {
            do { try ResourcePath.validate(id: collectionID, in: collectionID, rules: idRules) } catch { problem = error }
        }
        return Query(firestore: self, definition: QueryDefinition(source: .group(collectionID)), invalid: problem)
    }

    /// A document by path ("books/hitchhiker").
    @discardableResult
    public func document(_ documentPath: String) -> DocumentReference {
        do {
            return DocumentReference(firestore: self, path: try ResourcePath.parse(documentPath, expectDocument: true, rules: idRules))
        } catch {
            return DocumentReference(firestore: self, path: ResourcePath(segments: ["", documentPath]), invalid: error)
        }
    }

    /// The top-level collections: the folders in the store's folder.
    public func listCollections() throws -> [CollectionReference] {
        do { return try backend.collectionIDs(under: ResourcePath(segments: [])).map { collection($0) } } catch { throw publicError(error) }
    }

    // MARK: Listening

    package enum WatchKey: Hashable {
        case collection(ResourcePath)
        case document(ResourcePath)
        case collectionGroup(String)
        /// One query, for a backend that follows it on its own (`QueryingStorage.watches(_:)`: a
        /// Firestore server's listen target, a window of a database server's collection).
        case query(QueryDefinition)

        /// What a backend that follows whole collections watches for this key.
        package var broadened: WatchKey {
            guard case .query(let definition) = self else { return self }
            switch definition.source {
            case .collection(let path): return .collection(path)
            case .group(let id): return .collectionGroup(id)
            }
        }
    }

    /// The watcher polling `key`, if a listener keeps one running.
    func activeWatcher(_ key: WatchKey) -> Watcher? { watchers.watcher(for: key) }

    /// How many watchers are polling; zero once every listener is removed.
    var activeWatcherCount: Int { watchers.count }

    var terminatedError: FirestoreErrorCode {
        FirestoreErrorCode(.failedPrecondition, "the store at \(backend.description) was terminated; open a new Firestore to use it again")
    }

    /// Stops every watcher; later writes and listeners fail.
    func terminateNow() {
        watchers.close()
        place.openedBackend?.close()  // a server's connections; later calls fail, as Firebase's do
        app.forget(self)  // as Firebase's: the next `firestore(app:database:)` opens it anew
    }

}

import Foundation

/// Firestore's named databases: each a store of its own beside the `(default)` one, where
/// `NeighbourStores` finds it.
extension Firestore {
    /// The database every store is unless another is named.
    static let defaultDatabaseID = "(default)"

    /// The database `database` of the default app (the one `configure` set).
    @discardableResult
    public static func firestore(database: String) -> Firestore {
        firestore(app: FirebaseApp.configureIfNeeded(), database: database)
    }

    /// The `(default)` database of `app`.
    @discardableResult
    public static func firestore(app: FirebaseApp) -> Firestore {
        firestore(app: app, database: defaultDatabaseID)
    }

    /// The database `database` of `app`: the same store each time, until it is terminated.
    @discardableResult
    public static func firestore(app: FirebaseApp, database: String) -> Firestore {
        app.database(database)
    }
}

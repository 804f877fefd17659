import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// The databases a server serves, by the name requests give (`projects/p/databases/d`): any
/// project, the `(default)` database in the store it was started on, and each named database
/// in a store of its own, opened when first asked for and never mixed with `(default)`.
final class ServedDatabases: Sendable {
    private let defaultStore: Firestore
    /// Opens a named database's store.
    private let namedStore: @Sendable (String) throws -> Firestore
    private let opened = Locked<[String: Firestore]>([:])

    init(defaultStore: Firestore, namedStore: @escaping @Sendable (String) throws -> Firestore) {
        self.defaultStore = defaultStore
        self.namedStore = namedStore
    }

    /// Each named database beside the store at `location`, where the API's
    /// `Firestore.firestore(database:)` keeps it too (`Firestore.location(ofDatabase:besides:)`):
    /// on a folder in its `__databases__` folder, on PostgreSQL in a database of its own.
    convenience init(_ store: Firestore, at location: URL, settings: FirestoreSettings) {
        self.init(defaultStore: store) { name in
            try Firestore(url: Firestore.location(ofDatabase: name, besides: location), settings: settings)
        }
    }

    /// The database a request names: `database` is `projects/p/databases/d`, or a name under it.
    func database(_ resourceName: String, field: String) throws(WireError) -> ServedDatabase {
        let parsed: ResourceName
        do { parsed = try ResourceName(parsing: resourceName) } catch {
            throw .invalidArgument("\(field): \(error.description)")
        }
        return ServedDatabase(name: parsed.databaseName, store: try store(for: parsed.database))
    }

    private func store(for database: String) throws(WireError) -> Firestore {
        if database == "(default)" { return defaultStore }
        guard Self.isValidName(database) else {
            throw .invalidArgument("database \"\(database)\": a database id is 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen, or (default)")
        }
        if let store = opened.withLock({ $0[database] }) { return store }
        do {
            let store = try namedStore(database)
            return opened.withLock { opened in
                if let existing = opened[database] { return existing }
                opened[database] = store
                return store
            }
        } catch {
            throw WireError.failedPrecondition("database \"\(database)\" cannot be opened: \(error)")
        }
    }

    /// Firestore's rule for database ids, as the Swift API checks it.
    static func isValidName(_ name: String) -> Bool {
        Firestore.isValidDatabaseID(name)
    }
}

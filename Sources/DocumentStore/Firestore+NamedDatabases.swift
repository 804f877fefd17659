import Foundation

/// Firestore's named databases: each a store of its own beside the `(default)` one, in the
/// places `shelf serve` uses too, so the server, the API and the app see the same data.
extension Firestore {
    /// The database every store is unless another is named.
    static let defaultDatabaseID = "(default)"

    /// The database `database` of the default app (the one `configure` set).
    @discardableResult
    public static func firestore(database: String) -> Firestore {
        firestore(app: configuredApp(), database: database)
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

    /// Where the database `name` lives beside the store at `location`: a folder's
    /// `__databases__/NAME` (no collection can be named so: Firestore reserves ids of the form
    /// `__…__`), made when missing; on a server, where its module says (PostgreSQL: the
    /// database `<database>__NAME` on the same server).
    package static func location(ofDatabase name: String, besides location: URL) throws -> URL {
        if name == defaultDatabaseID { return location }
        guard isValidDatabaseID(name) else {
            throw FirestoreErrorCode(.invalidArgument, "database \"\(name)\": a database id is 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen, or (default)")
        }
        guard location.isFileURL else { return try ServerSchemes.neighbours(of: location, for: "database \"\(name)\"").database(name, location) }
        let folder = location.appendingPathComponent("__databases__").appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FirestoreErrorCode(.unavailable, "database \"\(name)\": cannot make its folder \(folder.path): \(error.localizedDescription)")
        }
        return folder
    }

    /// Firestore's rule for database ids: 4 to 63 lowercase letters, digits and hyphens,
    /// starting with a letter and not ending with a hyphen.
    package static func isValidDatabaseID(_ name: String) -> Bool {
        let characters = Array(name.utf8)
        guard (4...63).contains(characters.count), let first = characters.first, let last = characters.last else { return false }
        let isLower = { (c: UInt8) in c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") }
        let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        return isLower(first) && last != UInt8(ascii: "-")
            && characters.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// A database that cannot be opened: every read, write and listener fails with `reason`.
    convenience init(unopenable name: String, reason: Error, location: URL, directory: URL, app: FirebaseApp) {
        let backend = UnopenableBackend(description: "database \"\(name)\"", reason: publicError(reason))
        self.init(backend: backend, directory: directory, location: location, settings: app.settingsForDatabases, app: app, databaseID: name)
    }
}

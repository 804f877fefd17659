import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// The databases a server serves, by the name requests give (`projects/p/databases/d`), each
/// project kept apart as Google's emulator keeps them: the store the server was started on is
/// one project's `(default)` database (the project given at start, or else the one it was
/// first served for, recorded with it), and every other project, and every named database,
/// is a store of its own beside it, opened when first asked for.
final class ServedDatabases: Sendable {
    private let home: Firestore
    /// Where `home` is (a folder, or a URL with its password).
    private let location: URL
    /// The project `home` is, once known; asked of the store's record on the first request.
    private let owner: Locked<String?>
    /// Opens a store at a location beside `home`.
    private let open: @Sendable (URL) throws -> Firestore
    private let opened = Locked<[Key: Firestore]>([:])

    private struct Key: Hashable {
        let project: String
        let database: String
    }

    /// `owner`: the project `home` is, when the caller knows it (`claimOwner`); otherwise the
    /// store's record says, or the first request's project claims it.
    init(home: Firestore, at location: URL, owner: String? = nil, open: @escaping @Sendable (URL) throws -> Firestore) {
        self.home = home
        self.location = location
        self.owner = Locked(owner)
        self.open = { url in
            let store = try open(url)
            Self.prepare(store)
            return store
        }
        Self.prepare(home)
    }

    /// Readies a served store: reads at a past time need its versions (a store that cannot
    /// keep them refuses those reads); it commits its clients' writes, which none of its
    /// listeners shows pending.
    private static func prepare(_ store: Firestore) {
        try? store.keepPastVersions()
        store.showsPendingWrites = false
    }

    /// Stores beside `store`, at `location`, opened with `settings`, as the API's
    /// `Firestore.firestore(database:)` finds its named databases too.
    convenience init(_ store: Firestore, at location: URL, owner: String? = nil, settings: FirestoreSettings) {
        self.init(home: store, at: location, owner: owner) { url in try Firestore(url: url, settings: settings) }
    }

    /// Records `project` as the owner of the store at `location` unless another is recorded,
    /// and fails naming that one then: a server started for a project serves its data.
    static func claimOwner(of location: URL, for project: String) throws {
        let owner = try NeighbourStores.owner(of: location, claiming: project)
        guard owner == project else {
            throw FirestoreErrorCode(.failedPrecondition, "\(location.isFileURL ? location.path : "the database") holds project \(owner)'s data, not \(project)'s: serve it for \(owner), or give another store for \(project)")
        }
    }

    /// The database a request names: `database` is `projects/p/databases/d`, or a name under it.
    func database(_ resourceName: String, field: String) throws(WireError) -> ServedDatabase {
        let parsed = try ResourceName.parse(resourceName, field: field)
        return ServedDatabase(name: parsed.databaseName, store: try store(project: parsed.project, database: parsed.database))
    }

    private func store(project: String, database: String) throws(WireError) -> Firestore {
        guard NeighbourStores.isValidProjectID(project) else { throw .invalidArgument(NeighbourStores.projectIDRule(project)) }
        guard database == "(default)" || NeighbourStores.isValidDatabaseID(database) else {
            throw .invalidArgument("database \"\(database)\": a database id is 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen, or (default)")
        }
        let isHome = try ownerProject(claiming: project) == project
        if isHome && database == "(default)" { return home }
        let key = Key(project: project, database: database)
        if let store = opened.withLock({ $0[key] }) { return store }
        do {
            let projectLocation = isHome ? location : try NeighbourStores.location(ofProject: project, besides: location)
            let store = try open(NeighbourStores.location(ofDatabase: database, besides: projectLocation))
            return opened.withLock { opened in
                if let existing = opened[key] { return existing }
                opened[key] = store
                return store
            }
        } catch {
            throw WireError.failedPrecondition("project \"\(project)\", database \"\(database)\" cannot be opened: \(error)")
        }
    }

    /// The project `home` is: known, or recorded with it, or `project`, now recorded.
    private func ownerProject(claiming project: String) throws(WireError) -> String {
        if let owner = owner.withLock({ $0 }) { return owner }
        do {
            let recorded = try NeighbourStores.owner(of: location, claiming: project)
            return owner.withLock { owner in
                if owner == nil { owner = recorded }
                return owner ?? recorded
            }
        } catch {
            throw WireError.failedPrecondition("cannot tell which project \(location.isFileURL ? location.path : "the served database") is: \(error)")
        }
    }
}

/// Firebase calls that configure its client's log and offline cache, accepted so that code
/// calling them compiles and runs; here the files are the database and there is no cache.
extension Firestore {
    /// Accepted: Firebase's switch for its client's debug log. The store writes no debug log;
    /// its errors name the document and the reason wherever they are reported.
    public static func enableLogging(_ logging: Bool) {}

    /// Firebase's manager of the offline cache's query indexes, which a store of files does not
    /// have: every query reads the documents themselves. Its methods do nothing.
    public var persistentCacheIndexManager: PersistentCacheIndexManager? { PersistentCacheIndexManager() }
}

/// See `Firestore.persistentCacheIndexManager`: accepted, nothing to index.
public final class PersistentCacheIndexManager: Sendable {
    init() {}
    public func enableIndexAutoCreation() {}
    public func disableIndexAutoCreation() {}
    public func deleteAllIndexes() {}
}

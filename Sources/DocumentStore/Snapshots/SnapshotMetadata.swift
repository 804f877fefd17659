/// Firebase's metadata of a snapshot. A listener sees this store's own write first with
/// `hasPendingWrites`, then committed, as Firebase's SDK shows it; nothing comes from a cache,
/// since the files (or the server) are the only copy.
public struct SnapshotMetadata: Hashable, Sendable {
    public let hasPendingWrites: Bool
    public let isFromCache: Bool

    init(hasPendingWrites: Bool = false, isFromCache: Bool = false) {
        self.hasPendingWrites = hasPendingWrites
        self.isFromCache = isFromCache
    }
}

/// How `data()` shows a server timestamp not yet committed: in a pending write's snapshot
/// (see `PendingWrite.shown`); every other snapshot holds the commit's time.
public enum ServerTimestampBehavior: Int, Sendable {
    case none, estimate, previous
}

/// Where a read comes from. Accepted for Firebase's sake: the files are both server and cache.
public enum FirestoreSource: UInt, Sendable {
    case `default`, server, cache
}

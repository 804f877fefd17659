/// Firebase's metadata of a snapshot. Here a write is on disk when it returns and the files
/// are the only copy, so nothing is ever pending and nothing comes from a cache.
public struct SnapshotMetadata: Hashable, Sendable {
    public let hasPendingWrites = false
    public let isFromCache = false
}

/// How `data()` shows a server timestamp not yet confirmed by the server. Accepted for
/// Firebase's sake: here the time is set when the write is committed, so none is ever pending.
public enum ServerTimestampBehavior: Int, Sendable {
    case none, estimate, previous
}

/// Where a read comes from. Accepted for Firebase's sake: the files are both server and cache.
public enum FirestoreSource: UInt, Sendable {
    case `default`, server, cache
}

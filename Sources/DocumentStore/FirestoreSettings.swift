import Foundation

/// Settings of a store, as Firebase's `FirestoreSettings`: a class, so the settings code of
/// Firebase's docs compiles unchanged (`let settings = FirestoreSettings(); settings.cacheSettings
/// = …; db.settings = settings`). As in Firebase, `db.settings` hands out a copy: change it, then
/// assign it back. Settings apply to listeners added after they are set.
public final class FirestoreSettings: NSObject, NSCopying, @unchecked Sendable {
    /// Where completions and listeners run: the main queue by default. Use a serial queue, so
    /// snapshots arrive in order.
    public var dispatchQueue: DispatchQueue = .main
    /// Ours: how often listeners look at the files, in seconds (Firestore pushes changes; files
    /// are polled).
    public var pollingInterval: TimeInterval = 0.25
    /// Ours: whether a poll asks Linux's inotify which files changed (true), so it reads only
    /// those, or sweeps the folders with `stat` (false). Turn it off for a network file system
    /// (NFS, SMB, sshfs), where inotify never hears of a change made on another machine. Where
    /// inotify is unavailable or out of watches, listeners sweep anyway. Off, large collections
    /// keep no snapshot file either (see `cacheSettings`).
    public var isInotifyEnabled: Bool = true
    /// As in Firebase, persistent by default: here a folder's collections of `snapshotMinimum`
    /// documents or more keep a snapshot file of their documents (in `snapshotFolder`), which
    /// opening them reads instead of each unchanged file. `MemoryCacheSettings()` keeps none.
    /// The files stay the database: a document is taken from the snapshot only while its
    /// file's stamp is the one recorded with it.
    public var cacheSettings: any LocalCacheSettings = PersistentCacheSettings()
    /// Ours: where those snapshot files are kept (`$XDG_CACHE_HOME/shelf/collections`, or
    /// `~/.cache/shelf/collections`); nil for none.
    package var snapshotFolder: URL? = CollectionSnapshotFile.defaultFolder
    /// Ours: the fewest documents a collection folder needs to keep a snapshot file.
    package var snapshotMinimum = 10_000
    /// The Firestore server, as `host:port`, for a store of an app configured without a place
    /// (`FirebaseApp.configure()`); set before the store's first use (`useEmulator` sets it).
    /// Firebase's default names Google's cloud, which DocumentStore does not reach.
    public var host: String = Firestore.cloudHost
    /// As Firebase's, on by default; DocumentStore speaks plaintext gRPC only, so a server set
    /// through `host` needs it off (`useEmulator` turns it off).
    public var isSSLEnabled: Bool = true
    /// Accepted for Firebase's sake; deprecated there in favour of `cacheSettings`.
    public var isPersistenceEnabled: Bool = true
    public var cacheSizeBytes: Int64 = FirestoreCacheSizeUnlimited

    public override init() {}

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = FirestoreSettings()
        copy.dispatchQueue = dispatchQueue
        copy.pollingInterval = pollingInterval
        copy.isInotifyEnabled = isInotifyEnabled
        copy.cacheSettings = cacheSettings
        copy.snapshotFolder = snapshotFolder
        copy.snapshotMinimum = snapshotMinimum
        copy.host = host
        copy.isSSLEnabled = isSSLEnabled
        copy.isPersistenceEnabled = isPersistenceEnabled
        copy.cacheSizeBytes = cacheSizeBytes
        return copy
    }
}

/// As Firebase's constant: no limit on the cache's size.
public let FirestoreCacheSizeUnlimited: Int64 = -1

/// Firebase's local cache settings, so its configuration code compiles. The folder of files is
/// the database itself; `PersistentCacheSettings` (the default) lets large collections keep a
/// snapshot file of their documents (see `FirestoreSettings.cacheSettings`), `MemoryCacheSettings`
/// does not.
public protocol LocalCacheSettings: Sendable {}

public struct PersistentCacheSettings: LocalCacheSettings {
    public init() {}
    public init(sizeBytes: NSNumber) {}
}

public struct MemoryCacheSettings: LocalCacheSettings {
    public init() {}
    public init(garbageCollectorSettings: any MemoryGarbageCollectorSettings) {}
}

public protocol MemoryGarbageCollectorSettings: Sendable {}

/// Firebase's Swift name (`NS_SWIFT_NAME(MemoryEagerGCSetting)`), singular where the others are plural.
public struct MemoryEagerGCSetting: MemoryGarbageCollectorSettings {
    public init() {}
}

public struct MemoryLRUGCSettings: MemoryGarbageCollectorSettings {
    public init() {}
    public init(sizeBytes: NSNumber) {}
}

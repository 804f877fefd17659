import Foundation

/// Firebase's `includeMetadataChanges:` forms. Metadata never changes here (nothing is pending,
/// nothing comes from a cache), so they deliver what the plain forms deliver.
extension DocumentReference {
    @discardableResult
    public func addSnapshotListener(includeMetadataChanges: Bool,
                                    listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(listener)
    }
}

extension Query {
    @discardableResult
    public func addSnapshotListener(includeMetadataChanges: Bool,
                                    listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(listener)
    }
}

extension QuerySnapshot {
    /// Always false and false: nothing is pending and nothing comes from a cache.
    public var metadata: SnapshotMetadata { SnapshotMetadata() }

    /// Firebase's changes with or without metadata-only ones; there are none here, so both are
    /// `documentChanges`.
    public func documentChanges(includeMetadataChanges: Bool) -> [DocumentChange] { documentChanges }
}

/// Where a listener reads, as Firebase's `ListenSource`. The files are both the server and
/// the cache, so both sources deliver the same snapshots.
public enum ListenSource: UInt, Sendable {
    case `default`, cache
}

/// Firebase's options of `addSnapshotListener(options:listener:)`, built as there:
/// `SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)`.
public final class SnapshotListenOptions: NSObject, Sendable {
    public let source: ListenSource
    public let includeMetadataChanges: Bool

    public override init() {
        source = .default
        includeMetadataChanges = false
    }

    private init(source: ListenSource, includeMetadataChanges: Bool) {
        self.source = source
        self.includeMetadataChanges = includeMetadataChanges
    }

    public func withIncludeMetadataChanges(_ includeMetadataChanges: Bool) -> SnapshotListenOptions {
        SnapshotListenOptions(source: source, includeMetadataChanges: includeMetadataChanges)
    }

    public func withSource(_ source: ListenSource) -> SnapshotListenOptions {
        SnapshotListenOptions(source: source, includeMetadataChanges: includeMetadataChanges)
    }
}

extension DocumentReference {
    /// Delivers what `addSnapshotListener(_:)` delivers, whatever the options (see `ListenSource`).
    @discardableResult
    public func addSnapshotListener(options: SnapshotListenOptions,
                                    listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(listener)
    }
}

extension Query {
    /// Delivers what `addSnapshotListener(_:)` delivers, whatever the options (see `ListenSource`).
    @discardableResult
    public func addSnapshotListener(options: SnapshotListenOptions,
                                    listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(listener)
    }
}

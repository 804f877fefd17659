import Foundation

/// Firebase's `includeMetadataChanges:` forms: with `true`, a listener also gets the snapshots
/// where only `hasPendingWrites` changed (this store's write, now committed).
extension DocumentReference {
    @discardableResult
    public func addSnapshotListener(includeMetadataChanges: Bool,
                                    listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(includingMetadataChanges: includeMetadataChanges, listener)
    }
}

extension Query {
    @discardableResult
    public func addSnapshotListener(includeMetadataChanges: Bool,
                                    listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(includingMetadataChanges: includeMetadataChanges, progress: nil, listener)
    }
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
    /// Both sources deliver the same (see `ListenSource`); metadata changes as asked.
    @discardableResult
    public func addSnapshotListener(options: SnapshotListenOptions,
                                    listener: @escaping (DocumentSnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(includingMetadataChanges: options.includeMetadataChanges, listener)
    }
}

extension Query {
    /// Both sources deliver the same (see `ListenSource`); metadata changes as asked.
    @discardableResult
    public func addSnapshotListener(options: SnapshotListenOptions,
                                    listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(includingMetadataChanges: options.includeMetadataChanges, progress: nil, listener)
    }
}

/// A document as it was before a commit replaced or deleted it: what a read at an earlier time
/// (Firestore's `read_time`) answers. A backend keeps these for `window` after the commit
/// (a folder in `.shelf/versions`, PostgreSQL in `shelf_versions`); a document's first version
/// needs none: its create time says since when it exists.
package struct PastVersion: Sendable {
    package let path: ResourcePath
    package let document: StoredDocument
    package let times: DocumentTimes
    /// The time of the commit that replaced or deleted it.
    package let replaced: Timestamp

    package init(path: ResourcePath, document: StoredDocument, times: DocumentTimes, replaced: Timestamp) {
        self.path = path
        self.document = document
        self.times = times
        self.replaced = replaced
    }

    /// How long versions are kept, and so how far back a read may ask: an hour, Firestore's
    /// window without point-in-time recovery.
    package static let window: Int64 = 3600

    /// The document at `time`, from its versions replaced after `time` and what it is now: the
    /// earliest such version, else the current one; missing when that was created after `time`.
    /// A document some other program rewrote since `time` (no version kept) reads as it is now.
    static func state(at time: Timestamp, versions: [PastVersion], current: StoredDocument,
                      currentTimes: DocumentTimes?) -> (document: StoredDocument, times: DocumentTimes?) {
        let earliest = versions.filter { $0.replaced > time }.min { $0.replaced < $1.replaced }
        let (document, times) = earliest.map { ($0.document, Optional($0.times)) } ?? (current, currentTimes)
        guard document != .missing, let times, times.created <= time else { return (.missing, nil) }
        return (document, times)
    }
}

/// Which documents' versions a read at a past time needs.
package enum VersionScope: Sendable {
    case documents([ResourcePath])
    case collection(ResourcePath)
    /// Every collection with this id, at any depth.
    case group(String)
    /// Every document below this path (the root: no segments), at any depth.
    case below(ResourcePath)

    package func contains(_ path: ResourcePath) -> Bool {
        switch self {
        case .documents(let paths): paths.contains(path)
        case .collection(let collection): path.parent == collection
        case .group(let id): path.segments.count >= 2 && path.segments[path.segments.count - 2] == id
        case .below(let parent): path.segments.count > parent.segments.count && ResourcePath(segments: Array(path.segments.prefix(parent.segments.count))) == parent
        }
    }
}

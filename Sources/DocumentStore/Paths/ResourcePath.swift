/// A slash-separated path to a collection (odd number of segments) or a document (even),
/// checked once against Firestore's rules and the file system's.
struct ResourcePath: Hashable, Sendable, CustomStringConvertible {
    let segments: [String]

    var description: String { segments.joined(separator: "/") }
    var isDocument: Bool { segments.count % 2 == 0 }
    var last: String { segments.last ?? "" }
    var parent: ResourcePath { ResourcePath(segments: Array(segments.dropLast())) }
    func appending(_ segment: String) -> ResourcePath { ResourcePath(segments: segments + [segment]) }

    /// Parses a path given by the caller; a leading or trailing slash is tolerated.
    static func parse(_ text: String, expectDocument: Bool) throws(DocumentStoreError) -> ResourcePath {
        var trimmed = Substring(text)
        if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        if trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw .invalidPath(text, reason: "the path is empty") }
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for segment in segments { try validate(id: segment, in: text) }
        let path = ResourcePath(segments: segments)
        if expectDocument && !path.isDocument {
            throw .invalidPath(text, reason: "a document path has an even number of segments (collection/document), this one has \(segments.count)")
        }
        if !expectDocument && path.isDocument {
            throw .invalidPath(text, reason: "a collection path has an odd number of segments (collection or collection/document/collection), this one has \(segments.count)")
        }
        return path
    }

    /// Longest id whose file name `<id>.json` fits the 255-byte limit of Linux file systems.
    static let maxIDBytes = 250

    /// Firestore's id rules, plus what one file per document needs.
    static func validate(id: String, in path: String) throws(DocumentStoreError) {
        let shown = path.isEmpty ? id : path
        if id.isEmpty { throw .invalidPath(shown, reason: "an id cannot be empty") }
        if id.contains("/") { throw .invalidPath(shown, reason: "an id cannot contain \"/\"") }
        if id == "." || id == ".." { throw .invalidPath(shown, reason: "an id cannot be \".\" or \"..\"") }
        if id.hasPrefix("__") && id.hasSuffix("__") && id.utf8.count >= 4 {
            throw .invalidPath(shown, reason: "ids matching __.*__ are reserved")
        }
        if id.hasPrefix(".") {
            throw .invalidPath(shown, reason: "an id cannot start with \".\" (names starting with a dot are the store's temporary files)")
        }
        if id.utf8.contains(0) { throw .invalidPath(shown, reason: "an id cannot contain a NUL character") }
        let bytes = id.utf8.count
        if bytes > 1500 { throw .invalidPath(shown, reason: "an id is at most 1,500 bytes, this one is \(bytes)") }
        if bytes > maxIDBytes {
            throw .invalidPath(shown, reason: "an id is at most \(maxIDBytes) bytes here (a document is the file <id>.json and file names are limited to 255 bytes), this one is \(bytes)")
        }
    }
}

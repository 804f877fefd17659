/// A slash-separated path to a collection (odd number of segments) or a document (even),
/// checked once against Firestore's rules and the file system's. Two paths are equal when their
/// segments have the same UTF-8 bytes, as in Firestore: "café" precomposed and decomposed are
/// two documents, as they are two files.
package struct ResourcePath: Hashable, Sendable, CustomStringConvertible {
    package let segments: [String]

    package init(segments: [String]) {
        self.segments = segments
    }

    /// A path as this program stored it (a version's record, a server's row): already valid.
    package init(stored text: String) {
        segments = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    package static func == (a: ResourcePath, b: ResourcePath) -> Bool {
        a.segments.count == b.segments.count && zip(a.segments, b.segments).allSatisfy { UTF8Bytes.equal($0, $1) }
    }

    package func hash(into hasher: inout Hasher) {
        for segment in segments { UTF8Bytes.hash(segment, into: &hasher) }
    }

    package var description: String { segments.joined(separator: "/") }
    package var isDocument: Bool { segments.count % 2 == 0 }
    package var last: String { segments.last ?? "" }
    package var parent: ResourcePath { ResourcePath(segments: Array(segments.dropLast())) }
    func appending(_ segment: String) -> ResourcePath {
        var segments = segments  // one allocation, not two (`segments + [segment]` makes an array of one first)
        segments.append(segment)
        return ResourcePath(segments: segments)
    }

    /// Parses a path given by the caller; a leading or trailing slash is tolerated. Split on
    /// the byte "/", not on characters: a "/" followed by a combining mark is still a slash.
    package static func parse(_ text: String, expectDocument: Bool, rules: IDRules = .firestore) throws(DocumentStoreError) -> ResourcePath {
        let slash = UInt8(ascii: "/")
        var trimmed = Substring(text).utf8[...]
        if trimmed.first == slash { trimmed = trimmed.dropFirst() }
        if trimmed.last == slash { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw .invalidPath(text, reason: "the path is empty") }
        let segments = trimmed.split(separator: slash, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        for segment in segments { try validate(id: segment, in: text, rules: rules) }
        let path = ResourcePath(segments: segments)
        if expectDocument && !path.isDocument {
            throw .invalidPath(text, reason: "a document path has an even number of segments (collection/document), this one has \(segments.count)")
        }
        if !expectDocument && path.isDocument {
            throw .invalidPath(text, reason: "a collection path has an odd number of segments (collection or collection/document/collection), this one has \(segments.count)")
        }
        return path
    }

    /// Why `id` cannot name a document (`validate`'s reason), or nil when it can: for a form
    /// to say so as the id is typed.
    package static func problem(withID id: String, rules: IDRules) -> String? {
        do throws(DocumentStoreError) {
            try validate(id: id, in: "", rules: rules)
            return nil
        } catch {
            if case .invalidPath(_, let reason) = error { return reason }
            return error.description
        }
    }

    /// Firestore's id rules, plus what the store needs (`rules`). Checked on the bytes, as the
    /// file system sees them: `"a/\u{301}"` holds a slash even though Swift's `contains("/")`
    /// sees only the character "/́".
    static func validate(id: String, in path: String, rules: IDRules = .firestore) throws(DocumentStoreError) {
        let shown = path.isEmpty ? id : path
        let utf8 = id.utf8
        if utf8.isEmpty { throw .invalidPath(shown, reason: "an id cannot be empty") }
        if utf8.contains(UInt8(ascii: "/")) { throw .invalidPath(shown, reason: "an id cannot contain \"/\"") }
        if utf8.elementsEqual(".".utf8) || utf8.elementsEqual("..".utf8) {
            throw .invalidPath(shown, reason: "an id cannot be \".\" or \"..\"")
        }
        if utf8.starts(with: "__".utf8) && utf8.reversed().starts(with: "__".utf8) && utf8.count >= 4 && IDOrder.number(of: id) == nil {
            throw .invalidPath(shown, reason: "ids matching __.*__ are reserved, but for numeric ids (__id<64-bit integer>__)")
        }
        if rules == .folder && utf8.first == UInt8(ascii: ".") {
            throw .invalidPath(shown, reason: "an id cannot start with \".\" in a folder (names starting with a dot are the store's temporary files)")
        }
        if id.utf8.contains(0) { throw .invalidPath(shown, reason: "an id cannot contain a NUL character") }
        let bytes = id.utf8.count
        if bytes > 1500 { throw .invalidPath(shown, reason: "an id is at most 1,500 bytes, this one is \(bytes)") }
        if rules == .folder && bytes > IDRules.folderMaxBytes {
            throw .invalidPath(shown, reason: "an id is at most \(IDRules.folderMaxBytes) bytes in a folder (a document is the file <id>.json and file names are limited to 255 bytes), this one is \(bytes)")
        }
    }
}

/// Which ids a store holds: Firestore's (1,500 bytes, any but `.`, `..`, `__…__`), or, in a
/// folder, where a document is the file `<id>.json`, fewer: none starting with a dot (the
/// store's temporary files) and none longer than a file name allows.
package enum IDRules: Sendable {
    case firestore
    case folder

    /// Longest id whose file name `<id>.json` fits the 255-byte limit of Linux file systems.
    static let folderMaxBytes = 250
}

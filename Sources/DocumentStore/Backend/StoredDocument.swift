/// The content of one document file as read from disk.
package enum StoredDocument: Equatable, Sendable {
    case missing
    case fields(Fields)
    /// The file exists but is not a JSON object Shelf can read; the reason names what is wrong.
    /// Boxed: the enum is then two words, as `Fields` is, and a snapshot's object fits the
    /// 64-byte block of malloc rather than an 80-byte one (16 MB at a million documents).
    indirect case unreadable(String)

    package var fields: Fields? {
        if case .fields(let f) = self { return f }
        return nil
    }

    /// The value at a field path (["cover", "small"]); nil when there is none. Read in place:
    /// no copy of the fields, whose shape every document of a collection shares (copies of it
    /// made on every core at once wait on its one count of references).
    package func value(at segments: some Collection<String>) -> FirestoreValue? {
        guard case .fields(let fields) = self else { return nil }
        return fields.value(at: segments)
    }
}

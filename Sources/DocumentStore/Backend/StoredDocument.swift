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
}

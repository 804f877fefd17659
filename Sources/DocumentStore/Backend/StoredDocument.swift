/// The content of one document file as read from disk.
package enum StoredDocument: Equatable, Sendable {
    case missing
    case fields(Fields)
    /// The file exists but is not a JSON object Shelf can read; the reason names what is wrong.
    case unreadable(String)

    package var fields: Fields? {
        if case .fields(let f) = self { return f }
        return nil
    }
}

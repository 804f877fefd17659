/// The content of one document file as read from disk.
enum StoredDocument: Equatable, Sendable {
    case missing
    case fields([String: FirestoreValue])
    /// The file exists but is not a JSON object Shelf can read; the reason names what is wrong.
    case unreadable(String)

    /// Field names compared by their bytes, as Firestore compares them.
    static func == (a: StoredDocument, b: StoredDocument) -> Bool {
        switch (a, b) {
        case (.missing, .missing): return true
        case let (.fields(x), .fields(y)): return FirestoreValue.mapsEqual(x, y)
        case let (.unreadable(x), .unreadable(y)): return x == y
        default: return false
        }
    }

    var fields: [String: FirestoreValue]? {
        if case .fields(let f) = self { return f }
        return nil
    }
}

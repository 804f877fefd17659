import Foundation

/// Ours: one field's value typed as text in the typed JSON of the store's files (see the
/// README's "On disk"), for tools that let a person edit a value whatever its type. Reads what
/// `DocumentSnapshot.storedJSON(ofField:)` writes as the same value, type and all.
extension Firestore {
    /// The value `text` stands for in the typed JSON of the store's files, as `data()` gives
    /// it, checked as a write checks the field `name` holding it (the name, ranges, nesting, an
    /// array in an array), so `setData` takes it unless the document outgrows 1 MiB. Throws
    /// `invalidArgument` with a message saying what was expected and where, such as
    /// `expected one JSON value (…); column 7: unterminated string` or `field when: {"$timestamp": …} expects an RFC 3339 time…`.
    public func value(fromStoredJSON text: String, field name: String) throws -> Any {
        try DocumentJSON.value(typedText: text, field: name, store: self)
    }
}

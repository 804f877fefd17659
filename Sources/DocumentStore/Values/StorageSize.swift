import Foundation

/// A document's size as Firestore counts it toward its 1 MiB limit, whatever the backend
/// stores (a folder's JSON writes bytes in base64, a third longer; an integer may take one
/// digit): https://firebase.google.com/docs/firestore/storage-size. The name's size, each
/// field name's and each value's, and 32 bytes.
enum StorageSize {
    static func document(_ path: ResourcePath, _ fields: Fields) -> Int {
        name(path) + map(fields) + 32
    }

    /// Each collection and document id as a string, and 16 bytes.
    static func name(_ path: ResourcePath) -> Int {
        path.segments.reduce(16) { $0 + string($1) }
    }

    static func map(_ fields: Fields) -> Int {
        fields.reduce(0) { $0 + string($1.0) + value($1.1) }
    }

    static func value(_ value: FirestoreValue) -> Int {
        switch value {
        case .null, .boolean: 1
        case .integer, .double, .timestamp: 8
        case .geoPoint: 16
        case .string(let text): string(text)
        case .bytes(let data): data.count
        case .reference(let reference): name(reference.resourcePath)
        case .array(let items): items.reduce(0) { $0 + Self.value($1) }
        case .map(let fields): map(fields)
        }
    }

    /// A string's UTF-8 bytes and one.
    private static func string(_ text: String) -> Int { text.utf8.count + 1 }
}

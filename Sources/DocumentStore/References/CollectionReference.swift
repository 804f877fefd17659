import Foundation

/// A collection: a folder of `<id>.json` documents.
public final class CollectionReference: Query, @unchecked Sendable {
    override init(firestore: Firestore, path: ResourcePath, invalid: Error? = nil) {
        super.init(firestore: firestore, path: path, invalid: invalid)
    }

    public var collectionID: String { collectionPath.last }
    public var path: String { collectionPath.description }

    /// The document this collection belongs to, or nil for a top-level collection.
    public var parent: DocumentReference? {
        collectionPath.segments.count > 1 ? DocumentReference(firestore: firestore, path: collectionPath.parent, invalid: invalid) : nil
    }

    /// A document of this collection by id, or by a slash-separated path below it
    /// ("dune/reviews/r1"), as Firebase's `document(_ documentPath:)`.
    @discardableResult
    public func document(_ documentPath: String) -> DocumentReference {
        var problem = invalid
        var target = collectionPath.appending(documentPath)
        if problem == nil {
            do {
                if documentPath.utf8.contains(UInt8(ascii: "/")) {
                    target = try ResourcePath.parse(path + "/" + documentPath, expectDocument: true, rules: firestore.idRules)
                } else {
                    try ResourcePath.validate(id: documentPath, in: path + "/" + documentPath, rules: firestore.idRules)
                }
            } catch { problem = error }
        }
        return DocumentReference(firestore: firestore, path: target, invalid: problem)
    }

    /// A new document with a 20-character id from A-Z, a-z and 0-9, drawn from the system's
    /// secure random source.
    @discardableResult
    public func document() -> DocumentReference {
        document(Self.autoID())
    }

    static func autoID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// Writes `value` as a new document with an automatic id. Encoding errors are thrown; the
    /// write's outcome goes to `completion`, or to the store's handler.
    @discardableResult
    public func addDocument<T: Encodable>(from value: T, encoder: Firestore.Encoder = Firestore.Encoder(),
                                          completion: ((Error?) -> Void)? = nil) throws -> DocumentReference {
        let reference = document()
        try reference.setData(from: value, encoder: encoder, completion: completion)
        return reference
    }

    @discardableResult
    public func addDocument(data: [String: Any]) -> DocumentReference {
        let reference = document()
        reference.setData(data)
        return reference
    }

    @discardableResult
    public func addDocument(data: [String: Any], completion: ((Error?) -> Void)?) -> DocumentReference {
        let reference = document()
        reference.setData(data, completion: completion)
        return reference
    }

    @discardableResult
    nonisolated(nonsending) public func addDocument(data: [String: Any]) async throws -> DocumentReference {
        let reference = document()
        try await reference.setData(data)
        return reference
    }

    /// Ours: `addDocument(from:)` that throws the write's error as well as the encoding's.
    @discardableResult
    public func add<T: Encodable>(_ value: T, encoder: Firestore.Encoder = Firestore.Encoder()) throws -> DocumentReference {
        let reference = document()
        try reference.write(value, encoder: encoder)
        return reference
    }
}

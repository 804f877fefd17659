import Foundation

/// A document as it was read: its fields, or the fact that it does not exist, or why its file
/// could not be read.
public class DocumentSnapshot: @unchecked Sendable {
    public let reference: DocumentReference
    let stored: StoredDocument

    /// Kept, not derived: queries compare it on every step of a sort.
    public let documentID: String

    init(reference: DocumentReference, stored: StoredDocument) {
        self.reference = reference
        self.stored = stored
        documentID = reference.documentID
    }

    /// True when the file exists, even if it cannot be read (see `readError`).
    public var exists: Bool { stored != .missing }

    /// Why the document's file could not be read (not JSON, not an object, not UTF-8, over
    /// 1 MiB...), with the document's path; nil when it was read. Ours: Firestore has no such files.
    public var readError: DocumentStoreError? {
        if case .unreadable(let reason) = stored { return .unreadableDocument(path: reference.path, reason: reason) }
        return nil
    }

    /// The fields as plain Swift values (timestamps as their RFC 3339 strings); nil when the
    /// document does not exist or cannot be read.
    public func data() -> [String: Any]? {
        stored.fields?.mapValues(FieldConversion.plainValue)
    }

    /// The value at a dotted field path, or nil.
    public func get(_ field: String) -> Any? {
        stored.fields?.value(at: field).map(FieldConversion.plainValue)
    }

    public subscript(field: String) -> Any? { self.get(field) }

    /// Decodes the document. Errors are `DecodingError`s naming the document and the field; a
    /// missing document is `valueNotFound` (or nil when `T` is optional); an unreadable file is
    /// `dataCorrupted` with the reason.
    public func data<T: Decodable>(as type: T.Type, decoder: Firestore.Decoder = Firestore.Decoder()) throws -> T {
        switch stored {
        case .missing:
            guard T.self is ExpressibleByNilLiteral.Type else {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "document \(reference.path) does not exist"))
            }
            return try decoder.decode(T.self, from: .null, reference: reference)
        case .unreadable(let reason):
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "document \(reference.path) cannot be read: \(reason)"))
        case .fields(let fields):
            return try decoder.decode(T.self, from: .object(fields), reference: reference)
        }
    }
}

/// A document in a query's results: it exists, so `data()` is not optional.
public final class QueryDocumentSnapshot: DocumentSnapshot, @unchecked Sendable {
    /// The fields; empty when the file cannot be read (see `readError`).
    public override func data() -> [String: Any] {
        super.data() ?? [:]
    }
}

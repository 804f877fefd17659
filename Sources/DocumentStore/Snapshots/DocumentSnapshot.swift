import Foundation

/// A document as it was read: its fields, or the fact that it does not exist, or why its file
/// could not be read.
public class DocumentSnapshot: @unchecked Sendable {
    /// Where the document is: its reference, or, for the documents of a collection read
    /// together, the collection they share, from which `reference` is made when asked (a
    /// reference and its path would take 112 bytes a document), or the pending write it shows.
    private let place: Place
    package let stored: StoredDocument

    /// The id as the store tells documents apart: by its bytes.
    package let key: ExactID

    private enum Place {
        case reference(DocumentReference)
        case collection(CollectionPlace)
        case pending(PendingWrite)
    }

    package init(reference: DocumentReference, stored: StoredDocument, key: ExactID? = nil) {
        place = .reference(reference)
        self.stored = stored
        self.key = key ?? ExactID(reference.documentID)
    }

    /// This store's write of `stored` as its listeners see it before it is committed.
    init(pending write: PendingWrite, stored: StoredDocument) {
        place = .pending(write)
        self.stored = stored
        key = ExactID(write.reference.documentID)
    }

    /// The document `key` of `collection`.
    init(in collection: CollectionPlace, key: ExactID, stored: StoredDocument) {
        place = .collection(collection)
        self.stored = stored
        self.key = key
    }

    public var reference: DocumentReference {
        switch place {
        case .reference(let reference): reference
        case .pending(let write): write.reference
        case .collection(let collection): DocumentReference(firestore: collection.firestore, path: collection.path.appending(key.text))
        }
    }

    /// From the key, not the reference's path: queries compare it on every step of a sort.
    public var documentID: String { key.text }

    /// -1, 0 or 1, as the documents' paths compare segment by segment (`IDOrder`: Firestore's
    /// order of documents across collections), without making a reference.
    func comparePath(to other: DocumentSnapshot) -> Int {
        let (x, xID) = parentAndID, (y, yID) = other.parentAndID
        for (u, v) in zip(x, y) {
            let order = IDOrder.compare(u, v)
            if order != 0 { return order }
        }
        if x.count == y.count { return IDOrder.compare(xID, yID) }
        // One's id meets a segment of the other's collection path; on a tie the shorter is first.
        let order = x.count < y.count ? IDOrder.compare(xID, y[y.startIndex + x.count]) : IDOrder.compare(x[x.startIndex + y.count], yID)
        return order != 0 ? order : (x.count < y.count ? -1 : 1)
    }

    /// The segments of the path but the last, and the last: the id.
    private var parentAndID: (ArraySlice<String>, String) {
        switch place {
        case .reference(let reference): (reference.resourcePath.segments.dropLast(), reference.resourcePath.last)
        case .pending(let write): (write.reference.resourcePath.segments.dropLast(), write.reference.resourcePath.last)
        case .collection(let collection): (collection.path.segments[...], key.text)
        }
    }

    /// True when the file exists, even if it cannot be read (see `readError`).
    public var exists: Bool { stored != .missing }

    /// Why the document's file could not be read (not JSON, not an object, not UTF-8, over
    /// 1 MiB...), with the document's path; nil when it was read. Ours: Firestore has no such files.
    public var readError: FirestoreErrorCode? {
        if case .unreadable(let reason) = stored { return DocumentStoreError.unreadableDocument(path: reference.path, reason: reason).firestoreError }
        return nil
    }

    /// Ours: the document as the store keeps it, in the typed JSON of the folder's files
    /// (see the README's "On disk"), whatever the backend; nil when it does not exist or cannot
    /// be read. For tools that show or copy the stored form (Shelf's `v` and `Y`).
    public var storedJSON: String? {
        stored.fields.map { String(decoding: JSONWriter.documentBytes(DocumentJSON.json($0)), as: UTF8.self) }
    }

    /// Ours: the value of the top-level field `name` (a name, not a dotted path) in the typed
    /// JSON of the folder's files, on one line: `"text"`, `42`, `4.0`, `[1, {"a": true}]`,
    /// `{"$timestamp": "2026-11-23T08:00:00.123456Z"}`. `Firestore.value(fromStoredJSON:field:)`
    /// reads it back as the same value. Nil when the document has no such field.
    public func storedJSON(ofField name: String) -> String? {
        stored.fields?[name].map { String(decoding: JSONWriter.oneLineBytes(DocumentJSON.json($0)), as: UTF8.self) }
    }

    /// The write of this store that a listener is shown before the snapshot that says it is
    /// committed (see `Watcher.showCommit`); nil for every other snapshot.
    var pendingWrite: PendingWrite? {
        if case .pending(let write) = place { return write }
        return nil
    }

    /// `hasPendingWrites` only in a listener's first snapshot of this store's own write; never
    /// from a cache (the files, or the server, are the only copy).
    public var metadata: SnapshotMetadata { SnapshotMetadata(hasPendingWrites: pendingWrite != nil) }

    /// The fields as shown with `behavior`: a pending write's stamped fields as Firebase shows
    /// them (see `PendingWrite.shown`); every other snapshot's as stored.
    private func fields(showing behavior: ServerTimestampBehavior) -> Fields? {
        guard let fields = stored.fields, let write = pendingWrite else { return stored.fields }
        return write.shown(fields, behavior)
    }

    /// The fields as the Firebase SDK gives them: numbers and booleans as `NSNumber`, and
    /// `Timestamp`, `GeoPoint`, `Data`, `DocumentReference`, `String`, `NSNull`, arrays and maps.
    /// Nil when the document does not exist or cannot be read. `serverTimestampBehavior`
    /// matters only for a pending write (see `metadata`).
    public func data(with serverTimestampBehavior: ServerTimestampBehavior = .none) -> [String: Any]? {
        fields(showing: serverTimestampBehavior)?.dictionary(\.anyValue)
    }

    /// The value at a dotted field path or a `FieldPath`, or nil.
    public func get(_ field: Any, serverTimestampBehavior: ServerTimestampBehavior = .none) -> Any? {
        guard let path = try? FieldPath.from(field, document: reference.path) else { return nil }
        if path.isDocumentID { return documentID }
        return fields(showing: serverTimestampBehavior)?.value(at: path.segments)?.anyValue
    }

    public subscript(field: Any) -> Any? { self.get(field) }

    /// Decodes the document. Errors are `DecodingError`s naming the document and the field; a
    /// missing document is `valueNotFound` (or nil when `T` is optional); an unreadable file is
    /// `dataCorrupted` with the reason.
    public func data<T: Decodable>(as type: T.Type, with serverTimestampBehavior: ServerTimestampBehavior = .none,
                                   decoder: Firestore.Decoder = Firestore.Decoder()) throws -> T {
        switch stored {
        case .missing:
            guard T.self is ExpressibleByNilLiteral.Type else {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "document \(reference.path) does not exist"))
            }
            return try decoder.decode(T.self, from: .null, reference: reference)
        case .unreadable(let reason):
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "document \(reference.path) cannot be read: \(reason)"))
        case .fields:
            return try decoder.decode(T.self, from: .map(fields(showing: serverTimestampBehavior) ?? [:]), reference: reference)
        }
    }
}

/// A collection as the snapshots of its documents read together share it.
final class CollectionPlace: Sendable {
    let firestore: Firestore
    let path: ResourcePath

    init(firestore: Firestore, path: ResourcePath) {
        self.firestore = firestore
        self.path = path
    }
}

/// A document in a query's results: it exists, so `data()` is not optional.
public final class QueryDocumentSnapshot: DocumentSnapshot, @unchecked Sendable {
    /// The fields; empty when the file cannot be read (see `readError`).
    public override func data(with serverTimestampBehavior: ServerTimestampBehavior = .none) -> [String: Any] {
        super.data(with: serverTimestampBehavior) ?? [:]
    }
}

import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// Documents as responses carry them: name, fields and Firestore's create and update times.
extension ServedDatabase {
    var values: WireValues { WireValues(databaseName: name, store: store) }

    /// The documents that exist among `snapshots`, fields limited to `mask` (nil: every field),
    /// in the same order, nil for a missing one; each with the times of the content sent.
    /// A snapshot was read before its times are: a document written since is sent as it is
    /// now (if still one of `query`'s), never its old content with the new times, which a
    /// client keeping documents by update time (a listener, an SDK's cache) would keep when
    /// the new content comes, taking it for no change.
    func wireDocuments(_ snapshots: [DocumentSnapshot], mask: [FieldPath]? = nil, query: Query? = nil) throws -> [Google_Firestore_V1_Document?] {
        try pairedDocuments(snapshots, mask: mask, query: query).map(\.document)
    }

    /// `wireDocuments`, each saying whether it holds the snapshot's own content.
    func pairedDocuments(_ snapshots: [DocumentSnapshot], mask: [FieldPath]? = nil,
                         query: Query? = nil) throws -> [(document: Google_Firestore_V1_Document?, isSnapshot: Bool)] {
        let now = try DocumentTimes.documentsWithTimes(snapshots.map(\.reference.path), in: store)
        return try zip(snapshots, now).map { snapshot, now in
            let path = snapshot.reference.path
            if now.stored == snapshot.stored { return (try wireDocument(path, snapshot.stored, times: now.times, mask: mask), true) }
            if let query, !query.matches(DocumentSnapshot(reference: snapshot.reference, stored: now.stored)) { return (nil, false) }
            return (try wireDocument(path, now.stored, times: now.times, mask: mask), false)
        }
    }

    /// The document at `path` holding `stored`, with `times` (those of that content); nil
    /// when it is missing.
    func wireDocument(_ path: String, _ stored: StoredDocument, times: DocumentTimes?,
                      mask: [FieldPath]? = nil) throws(WireError) -> Google_Firestore_V1_Document? {
        if case .unreadable(let reason) = stored { throw unreadable(path, reason) }
        guard let fields = stored.fields, let times else { return nil }
        var document = Google_Firestore_V1_Document()
        document.name = name(of: path)
        document.fields = values.wire(mask.map { Self.project(fields, on: $0) } ?? fields)
        document.createTime = WireValues.wire(times.created)
        document.updateTime = WireValues.wire(times.updated)
        return document
    }

    /// A document whose file is there but cannot be read: every read that would return it
    /// fails so, as Firestore's DATA_LOSS, rather than answering it as missing (which a
    /// transaction would then overwrite) or leaving it out of a query unsaid.
    func unreadable(_ path: String, _ reason: String) -> WireError {
        WireError(code: .dataLoss, message: "Document \"\(name(of: path))\" cannot be read: \(reason). Fix its file, or replace the whole document (set) or delete it.")
    }

    /// Only the fields at `paths` (a `DocumentMask` or a query's projection).
    static func project(_ fields: Fields, on paths: [FieldPath]) -> Fields {
        var kept: [String: FirestoreValue] = [:]
        for path in paths where !path.segments.isEmpty {
            guard let value = fields.value(at: path.segments) else { continue }
            put(value, at: path.segments[...], in: &kept)
        }
        return Fields(kept)
    }

    private static func put(_ value: FirestoreValue, at path: ArraySlice<String>, in fields: inout [String: FirestoreValue]) {
        let name = path.first!
        guard path.count > 1 else { fields[name] = value; return }
        var nested = fields[name]?.mapValue?.dictionary ?? [:]
        put(value, at: path.dropFirst(), in: &nested)
        fields[name] = .map(Fields(nested))
    }
}

import DocumentStore
import ShelfModels

/// A collection Shelf has no model for: each document's fields shown as they are.
struct RawFields: Codable, Sendable {
    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
    func encode(to encoder: any Encoder) throws {}

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}

extension Presentation where Model == RawFields {
    /// No field is known to name a document, so the id leads, then a title or name if any.
    /// The form holds the raw fields as typed JSON (`RawForm`).
    static func raw(_ collection: CollectionReference) -> Presentation {
        Presentation(
            title: collection.path,
            columns: [Column(ColumnSpec("Id", minWidth: 10, weight: 1), field: FieldPath.documentID().description, text: { _, snapshot in snapshot.documentID }),
                      Column(ColumnSpec("Name", minWidth: 10, weight: 1), style: Style(dim: true), text: { _, snapshot in
                          ["title", "name"].lazy.compactMap { snapshot.get($0) as? String }.first ?? ""
                      })],
            nameFields: ["title", "name"],
            detail: { _, snapshot, _ in RawValue.lines(for: snapshot, except: [], title: "Fields") },
            form: { snapshot in RawForm.spec(snapshot, in: collection) })
    }
}

/// A tab for a collection Shelf has no model for: raw fields, added and edited as typed JSON.
@MainActor
enum RawTab {
    static func make(store: Firestore, collectionID: String) -> ModelTab<RawFields> {
        let live = LiveCollection<RawFields>(store.collection(collectionID))
        return ModelTab(live: live, presentation: .raw(live.collection), subscribe: live.subscribe, unsubscribe: {})
    }
}

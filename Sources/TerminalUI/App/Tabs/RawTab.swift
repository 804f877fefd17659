import DocumentStore
import ShelfModels
import TerminalKit

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
            columns: [idColumn,
                      Column(ColumnSpec("Name", minWidth: 10, weight: 1), style: Style(dim: true), text: { _, snapshot in name(snapshot) ?? "" },
                             stored: { name($0).map { StoredCell(text: $0) } })],
            nameFields: ["title", "name"],
            detail: { _, snapshot, _ in RawValue.lines(for: snapshot, except: [], title: "Fields") },
            form: { snapshot in RawForm.spec(snapshot, in: collection) },
            columnsFromDocuments: fieldColumns)
    }

    /// Once the collection is read, the Id and the fields its documents hold (in at least a
    /// tenth of those sampled): `title` or `name` first, then the most common (ties by name),
    /// up to eight; numbers right-aligned when every value is one (numbers sort by value, before texts).
    static func fieldColumns(_ sample: [DocumentSnapshot]) -> [Column<RawFields>] {
        var counts: [String: Int] = [:]
        var allNumbers: [String: Bool] = [:]
        for snapshot in sample {
            for (name, value) in snapshot.data() ?? [:] {
                counts[name, default: 0] += 1
                allNumbers[name] = allNumbers[name, default: true] && number(value) != nil
            }
        }
        let threshold = max(1, sample.count / 10)
        let names = counts.filter { $0.value >= threshold }.sorted { a, b in
            let (aLeads, bLeads) = (["title", "name"].contains(a.key), ["title", "name"].contains(b.key))
            if aLeads != bLeads { return aLeads }
            return a.value != b.value ? a.value > b.value : a.key < b.key
        }.prefix(8).map(\.key)
        return [idColumn] + names.map { name in
            let isNumeric = allNumbers[name] == true
            let path = FieldPath([name])
            return Column(ColumnSpec(name, minWidth: min(max(name.count, 6), 14), weight: 1, alignment: isNumeric ? .right : .left),
                          field: name, style: Style(dim: name != names.first),
                          text: { _, snapshot in snapshot.get(path).map(RawValue.text) ?? "" },
                          stored: { snapshot in snapshot.get(path).map { StoredCell(text: RawValue.text($0), number: number($0)) } })
        }
    }

    private static var idColumn: Column<RawFields> {
        Column(ColumnSpec("Id", minWidth: 10, weight: 1), text: { _, snapshot in snapshot.documentID },
               stored: { StoredCell(text: $0.documentID) })
    }

    /// A document's title, else its name: what names it in a collection without a model.
    private static func name(_ snapshot: DocumentSnapshot) -> String? {
        ["title", "name"].lazy.compactMap { snapshot.get($0) as? String }.first
    }

    /// A number's value (not a boolean's, which is an NSNumber too).
    private static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !["c", "B"].contains(String(cString: number.objCType)) else { return nil }
        return number.doubleValue
    }
}

/// A tab for a collection Shelf has no model for: raw fields, added and edited as typed JSON.
@MainActor
enum RawTab {
    static func make(store: Firestore, collectionID: String) -> ListTab<WholeCollectionRows<RawFields>> {
        let live = LiveCollection<RawFields>(store.collection(collectionID))
        return ListTab(whole: live, presentation: .raw(live.collection), subscribe: live.subscribe)
    }
}

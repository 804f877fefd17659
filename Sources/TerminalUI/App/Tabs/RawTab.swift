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
    static func raw(_ collectionID: String) -> Presentation {
        Presentation(
            title: collectionID,
            searchFields: ["title", "name"],
            nameFields: ["title", "name"],
            row: { _, _ in [] },
            detail: { _, snapshot, _ in RawValue.lines(for: snapshot, except: [], title: "Fields") })
    }
}

/// A raw-fields tab shows the document id in the list, since no field is known to name it.
@MainActor
final class RawTab: CollectionTab {
    let inner: ModelTab<RawFields>

    init(store: Firestore, collectionID: String) {
        let live = LiveCollection<RawFields>(store.collection(collectionID))
        inner = ModelTab(live: live, presentation: .raw(collectionID), subscribe: live.subscribe, unsubscribe: {})
    }

    var collectionID: String { inner.collectionID }
    var title: String { inner.title }
    var isLoaded: Bool { inner.isLoaded }
    var loadProgress: (read: Int, total: Int)? { inner.loadProgress }
    var statusMessage: String? { inner.statusMessage }
    var rowCount: Int { inner.rowCount }
    var problemCount: Int? { inner.problemCount }
    func snapshot(at index: Int) -> DocumentSnapshot { inner.snapshot(at: index) }
    var version: Int { inner.version }
    func index(of documentID: String) -> Int? { inner.index(of: documentID) }
    func matching(_ query: String, among candidates: [Int]?) -> [Int] { inner.matching(query, among: candidates) }
    func listRow(at index: Int, mode: ColorMode) -> ListRow {
        let snapshot = inner.snapshot(at: index)
        if let problem = snapshot.readError {
            let reason = ProblemText.short(problem.description, path: snapshot.reference.path)
            return ListRow([Span(snapshot.documentID), Span("  " + reason, style: Style(dim: true))], marker: "!")
        }
        let name = ["title", "name"].lazy.compactMap { snapshot.get($0) as? String }.first
        return ListRow([Span(snapshot.documentID)] + (name.map { [Span("  " + $0, style: Style(dim: true))] } ?? []))
    }
    func detail(at index: Int, mode: ColorMode) -> TabDetail { inner.detail(at: index, mode: mode) }
    func name(at index: Int) -> String? { inner.name(at: index) }
    func show() { inner.show() }
    func hide() { inner.hide() }
    func form(editing index: Int?) -> FormSpec? { nil }
    func delete(id: String) -> String? { inner.delete(id: id) }
}

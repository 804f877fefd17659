import DocumentStore
import Foundation
import ShelfModels

/// A tab over a `LiveCollection` of one model, drawn by a `Presentation`.
@MainActor
final class ModelTab<Model: Codable & Sendable>: CollectionTab {
    let live: LiveCollection<Model>
    let presentation: Presentation<Model>
    private let subscribe: () -> Void
    private let unsubscribe: () -> Void
    private let remove: (String) -> String?

    init(live: LiveCollection<Model>, presentation: Presentation<Model>,
         subscribe: @escaping () -> Void, unsubscribe: @escaping () -> Void,
         delete: ((String) -> String?)? = nil) {
        self.live = live
        self.presentation = presentation
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
        self.remove = delete ?? { id in
            live.attempt { try live.delete(id: id) }
            return live.writeError
        }
    }

    var collectionID: String { live.collection.collectionID }
    var title: String { presentation.title }
    var isLoaded: Bool { live.hasLoaded }
    var loadProgress: (read: Int, total: Int)? { live.loadProgress }
    var statusMessage: String? { live.writeError ?? live.statusMessage }
    var rowCount: Int { live.rows.count }

    var version: Int { live.version }
    func snapshot(at index: Int) -> DocumentSnapshot { live.rows[index].snapshot }
    func index(of documentID: String) -> Int? { live.index(of: documentID) }

    func matching(_ query: String, among candidates: [Int]?) -> [Int] {
        let texts = searchTexts()
        let needle = Array(query.utf8)
        return (candidates ?? Array(texts.indices)).filter { texts[$0].contains(needle) }
    }

    /// Lower-cased UTF-8 search text per row, rebuilt when the rows change; each document's
    /// text is kept by snapshot (immutable), so a change recomputes only what changed.
    private var searchIndex: (version: Int, texts: [SearchText])?
    private var searchCache: [ObjectIdentifier: SearchText] = [:]

    private func searchTexts() -> [SearchText] {
        let version = live.version
        if let searchIndex, searchIndex.version == version { return searchIndex.texts }
        let rows = live.rows
        var cache: [ObjectIdentifier: SearchText] = [:]
        cache.reserveCapacity(rows.count)
        let texts = rows.map { row -> SearchText in
            let key = ObjectIdentifier(row.snapshot)
            let text = searchCache[key] ?? SearchText(([row.id] + presentation.searchFields.compactMap { row.snapshot.get($0).map(RawValue.text) })
                .joined(separator: " "))
            cache[key] = text
            return text
        }
        searchCache = cache
        searchIndex = (version, texts)
        return texts
    }

    func listRow(at index: Int, mode: ColorMode) -> ListRow {
        let row = live.rows[index]
        if let model = row.model { return ListRow(presentation.row(model, mode)) }
        let name = name(at: index) ?? row.id
        let reason = row.problem.map { ProblemText.short($0.message, path: row.snapshot.reference.path) } ?? "does not decode"
        return ListRow([Span(name), Span("  " + reason, style: Style(dim: true))], marker: "!")
    }

    func name(at index: Int) -> String? {
        let snapshot = live.rows[index].snapshot
        return presentation.nameFields.lazy.compactMap { snapshot.get($0) as? String }.first
    }

    func detail(at index: Int, mode: ColorMode) -> TabDetail {
        let row = live.rows[index]
        guard let model = row.model else {
            var lines = [DetailLine("Problem", row.problem?.message ?? "unknown", valueStyle: Style(bold: true))]
            if row.snapshot.readError == nil { lines += RawValue.lines(for: row.snapshot, except: [], title: "Fields") }
            return TabDetail(swatch: nil, lines: lines)
        }
        return TabDetail(swatch: presentation.swatch(model), lines: presentation.detail(model, row.snapshot, mode))
    }

    /// Counting decodes every row, so only collections up to 10,000 documents are counted;
    /// the count is kept until the rows change.
    private var problems: (version: Int, count: Int?)?
    var problemCount: Int? {
        if let problems, problems.version == live.version { return problems.count }
        let rows = live.rows
        let count = rows.count <= 10_000 ? rows.reduce(0) { $0 + ($1.problem == nil ? 0 : 1) } : nil
        problems = (live.version, count)
        return count
    }

    func show() { subscribe() }
    func hide() { unsubscribe() }

    func form(editing index: Int?) -> FormSpec? {
        presentation.form?(index.map { live.rows[$0].snapshot })
    }

    func delete(id: String) -> String? { remove(id) }
}

/// How one model's documents are shown and edited.
struct Presentation<Model> {
    var title: String
    /// Raw fields the filter searches, besides the id.
    var searchFields: [String]
    /// Raw fields that name a document which does not decode, tried in order.
    var nameFields: [String]
    var row: (Model, ColorMode) -> [Span]
    var detail: (Model, DocumentSnapshot, ColorMode) -> [DetailLine]
    var swatch: (Model) -> Color? = { _ in nil }
    /// The form for the given document, or for a new one when nil.
    var form: ((DocumentSnapshot?) -> FormSpec)?
}

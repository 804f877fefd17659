import DocumentStore
import Foundation
import ShelfModels
import TerminalKit

/// A tab over a `LiveCollection` of one model, drawn by a `Presentation`.
@MainActor
final class ModelTab<Model: Codable & Sendable>: PresentedRows {
    let live: LiveCollection<Model>
    let presentation: Presentation<Model>
    private let subscribe: () -> Void
    private let unsubscribe: () -> Void

    init(live: LiveCollection<Model>, presentation: Presentation<Model>,
         subscribe: @escaping () -> Void, unsubscribe: @escaping () -> Void) {
        self.live = live
        self.presentation = presentation
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    var collection: CollectionReference { live.collection }
    var isLoaded: Bool { live.hasLoaded }
    var loadProgress: (read: Int, total: Int?)? { live.loadProgress }
    var statusMessage: String? {
        if isGone { return "The '\(collectionID)' folder is gone: it was removed on disk" }
        return live.writeError ?? live.statusMessage
    }
    var isGone = false
    func forgetWriteError() { live.forgetWriteError() }
    var rowCount: Int { live.rows.count }
    var documentCount: Int { rowCount }
    /// Every document: one without the sorted column's field is listed last.
    var countScope: String? { nil }
    var holdsEveryRow: Bool { true }

    var version: Int { live.version }
    func row(at index: Int) -> LiveCollection<Model>.Row? { live.rows[index] }
    var documentIDs: [String] { live.rows.map(\.id) }
    func index(of documentID: String) -> Int? { live.index(of: documentID) }

    /// The presentation's columns; for a collection without a model, those its documents'
    /// fields make (`Presentation.columnsFromDocuments`) once it is read, kept from then on.
    /// What was made for the columns before (sort keys, search texts) is made again.
    private var derivedColumns: [Column<Model>]?
    var shownColumns: [Column<Model>] {
        if let derivedColumns { return derivedColumns }
        guard let derive = presentation.columnsFromDocuments, live.hasLoaded else { return presentation.columns }
        let columns = derive(live.rows.prefix(Self.columnSample).map(\.snapshot))
        derivedColumns = columns
        keyCaches = [:]
        ordered = nil
        searchTexts = RowSearchTexts()
        return columns
    }

    /// How many documents the fields of a collection without a model are counted in.
    static var columnSample: Int { 1_000 }

    func matching(_ filter: ListFilter, among candidates: ListedRows) -> ListedRows {
        ListedRows(matching(filter, among: Array(candidates)))
    }

    private func matching(_ filter: ListFilter, among candidates: [Int]) -> [Int] {
        var candidates = candidates
        if !filter.comparisons.isEmpty {
            let query = filter.query(on: live.collection, field: field(named:))
            let rows = live.rows
            candidates = candidates.filter { query.matches(rows[$0].snapshot) }
        }
        let needle = TextFolding.fold(filter.text)
        guard !needle.isEmpty else { return candidates }
        return searchTexts.matching(needle, among: candidates, of: live, fold: searchTextFolding())
    }

    /// Folds the search text of the row at an index, from its stored document (no decode).
    private func searchTextFolding() -> RowSearchTexts.Fold {
        let rows = live.snapshots, fold = Column.searchTextFolding(among: shownColumns)
        return { fold(rows[$0], &$1) }
    }

    func missingSearchTexts() -> Int { searchTexts.missingCount(live) }
    func makeSearchTexts(budget: Int) -> Int { searchTexts.prepare(live, budget: budget, fold: searchTextFolding()) }

    func problem(with filter: ListFilter) -> String? {
        filter.comparisons.isEmpty ? nil : filter.query(on: live.collection, field: field(named:)).refusal
    }

    private func field(named name: String) -> FieldPath { Column.field(named: name, among: shownColumns) }

    /// Row indices in `sort`'s order: ties by id (the rows' own order), documents without the
    /// column's field last, whichever the direction. Kept, and carried through each change of the rows.
    private var ordered: (version: Int, sort: SortOrder, rows: [Int])?

    func rows(by sort: SortOrder, matching filter: ListFilter, narrowing earlier: ListedRows?) -> ListedRows {
        let order = order(by: sort)
        return filter.isEmpty ? ListedRows(order) : ListedRows(matching(filter, among: earlier.map(Array.init) ?? order))
    }

    private func order(by sort: SortOrder) -> [Int] {
        if let ordered, ordered.version == live.version, ordered.sort == sort { return ordered.rows }
        let column = column(of: sort)
        let keys = keyCache(column: column).values(of: live, make: sortKeyMaker(column: column))
        let rows: [Int]
        if let ordered, ordered.version == live.version, ordered.sort == sort.reversed {
            rows = KeyOrder.reversed(ordered.rows, keys: keys)
        } else if let ordered, ordered.sort == sort, let map = live.rowMap(since: ordered.version), map.earlierCount == ordered.rows.count {
            rows = KeyOrder.order(following: ordered.rows, through: map, keys: keys, ascending: sort.ascending)
        } else {
            rows = KeyOrder.order(keys, ascending: sort.ascending)
        }
        ordered = (live.version, sort, rows)
        return rows
    }

    /// Per column, each row's sort key (nil: the document has no such field), made only for
    /// the columns sorted by; search texts only once the list is filtered.
    private var keyCaches: [Int: RowCache<SortKey?>] = [:]
    private var searchTexts = RowSearchTexts()

    private func keyCache(column index: Int) -> RowCache<SortKey?> {
        if let cache = keyCaches[index] { return cache }
        let cache = RowCache<SortKey?>(placeholder: nil)
        keyCaches[index] = cache
        return cache
    }

    /// Makes the key of the row at an index, in the column, from its stored document (no decode).
    private func sortKeyMaker(column index: Int) -> @Sendable (Int) -> SortKey? {
        let stored = shownColumns[index].stored
        let rows = live.snapshots
        return { stored(rows[$0])?.sortKey }
    }

    /// For tests: sort keys made so far, all columns.
    var sortKeysMade: Int { keyCaches.values.reduce(0) { $0 + $1.madeCount } }

    private func column(of sort: SortOrder) -> Int { min(max(0, sort.column), max(0, shownColumns.count - 1)) }

    func missingSortKeys(for sort: SortOrder) -> Int {
        if let ordered, ordered.version == live.version, ordered.sort == sort { return 0 }
        return keyCache(column: column(of: sort)).missingCount(live)
    }

    func makeSortKeys(for sort: SortOrder, budget: Int) -> Int {
        let column = column(of: sort)
        return keyCache(column: column).prepare(live, budget: budget, make: sortKeyMaker(column: column))
    }

    /// Counting decodes every row, so only collections up to `problemsCountedUpTo` documents
    /// are counted, and only once read: a large collection's first rows (the 1,024 read
    /// first of a million) are not all decoded in the frame that shows them. The count is kept
    /// until the rows change.
    private var problems: (version: Int, count: Int?)?
    var problemsCountedUpTo = 10_000
    var problemCount: Int? {
        if let problems, problems.version == live.version { return problems.count }
        let rows = live.rows
        let count = rows.count <= problemsCountedUpTo && live.loadProgress == nil ? rows.reduce(0) { $0 + ($1.problem == nil ? 0 : 1) } : nil
        problems = (live.version, count)
        return count
    }

    func show() { subscribe() }
    func windowed() -> CollectionTab? { WindowTab(collection: live.collection, presentation: presentation) }
    func hide() { unsubscribe() }

    func noteWrite(_ error: (any Error)?) -> String {
        live.attempt { if let error { throw error } }
        return live.writeError ?? ""
    }
}

/// How one model's documents are shown and edited.
struct Presentation<Model> {
    var title: String
    /// The list's columns: what each row shows, sorts by and is searched by (with the id).
    var columns: [Column<Model>]
    var defaultSort = SortOrder(column: 0)
    /// Raw fields that name a document which does not decode, tried in order.
    var nameFields: [String]
    var detail: (Model, DocumentSnapshot, ColorMode) -> [DetailLine]
    var swatch: (Model) -> Color? = { _ in nil }
    /// The form for the given document, or for a new one when nil.
    var form: (DocumentSnapshot?) -> FormSpec
    /// For a collection without a model: the columns its documents' fields make, from a
    /// sample of them (they replace `columns` once the collection is read).
    var columnsFromDocuments: (([DocumentSnapshot]) -> [Column<Model>])?
}

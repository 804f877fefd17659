import DocumentStore
import Foundation
import ShelfModels
import TerminalKit

/// The rows of a collection held whole (a `LiveCollection`): every row is here, so the list
/// is sorted and searched here, by keys and texts made from the stored documents (no decode),
/// a slice a frame for a large collection (`TabLists.advanceSorting`), and carried through
/// each change of the rows.
@MainActor
final class WholeCollectionRows<Model: Codable & Sendable>: RowSource {
    let live: LiveCollection<Model>
    private let subscribe: () -> Void
    private let unsubscribe: () -> Void

    init(live: LiveCollection<Model>, columns: [Column<Model>], subscribe: @escaping () -> Void, unsubscribe: @escaping () -> Void) {
        self.live = live
        self.columns = columns
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    var collection: CollectionReference { live.collection }
    /// What was made for the columns before (sort keys, search texts) is made again.
    var columns: [Column<Model>] {
        didSet {
            keyCaches = [:]
            ordered = nil
            searchTexts = RowSearchTexts()
        }
    }
    /// Once read, the first `columnSampleSize` documents.
    var columnSample: [DocumentSnapshot]? { live.hasLoaded ? live.rows.prefix(Self.columnSampleSize).map(\.snapshot) : nil }
    /// How many documents the fields of a collection without a model are counted in.
    static var columnSampleSize: Int { 1_000 }

    var isLoaded: Bool { live.hasLoaded }
    var loadProgress: (read: Int, total: Int?)? { live.loadProgress }
    var statusMessage: String? { live.statusMessage }
    var rowCount: Int { live.rows.count }
    var documentCount: Int { rowCount }
    /// Every document: one without the sorted column's field is listed last.
    var countScope: String? { nil }
    var version: Int { live.version }
    func row(at index: Int) -> LiveCollection<Model>.Row? { live.rows.indices.contains(index) ? live.rows[index] : nil }
    func index(of documentID: String) -> Int? { live.index(of: documentID) }
    var documentIDs: [String] { live.rows.map(\.id) }
    var holdsEveryRow: Bool { true }

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

    // MARK: Sorting

    /// Row indices in `sort`'s order: ties by id (the rows' own order), documents without the
    /// column's field last, whichever the direction. Kept, and carried through each change of the rows.
    private var ordered: (version: Int, sort: SortOrder, rows: [Int])?

    /// Every row in `sort`'s order: the tab filters them (`ListTab.matching`).
    func rows(by sort: SortOrder, filter: ListFilter) -> ListedRows { ListedRows(order(by: sort)) }

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
        let stored = columns[index].stored
        let rows = live.snapshots
        return { stored(rows[$0])?.sortKey }
    }

    /// For tests: sort keys made so far, all columns.
    var sortKeysMade: Int { keyCaches.values.reduce(0) { $0 + $1.madeCount } }

    private func column(of sort: SortOrder) -> Int { min(max(0, sort.column), max(0, columns.count - 1)) }

    func missingSortKeys(for sort: SortOrder) -> Int {
        if let ordered, ordered.version == live.version, ordered.sort == sort { return 0 }
        return keyCache(column: column(of: sort)).missingCount(live)
    }

    func makeSortKeys(for sort: SortOrder, budget: Int) -> Int {
        let column = column(of: sort)
        return keyCache(column: column).prepare(live, budget: budget, make: sortKeyMaker(column: column))
    }

    // MARK: Searching

    func rows(among candidates: [Int], containing needle: [UInt8]) -> [Int] {
        searchTexts.matching(needle, among: candidates, of: live, fold: searchTextFolding())
    }

    /// Folds the search text of the row at an index, from its stored document (no decode).
    private func searchTextFolding() -> RowSearchTexts.Fold {
        let rows = live.snapshots, fold = Column.searchTextFolding(among: columns)
        return { fold(rows[$0], &$1) }
    }

    func missingSearchTexts() -> Int { searchTexts.missingCount(live) }
    func makeSearchTexts(budget: Int) -> Int { searchTexts.prepare(live, budget: budget, fold: searchTextFolding()) }

    /// The words are found here, in any text; only the comparisons make a query.
    func problem(with filter: ListFilter) -> String? {
        filter.comparisons.isEmpty ? nil : filter.comparisonsQuery(on: collection, columns: columns).refusal
    }

    func show() { subscribe() }
    func hide() { unsubscribe() }
    /// Every row is held already.
    func show(rows: Range<Int>) {}
}

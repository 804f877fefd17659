import DocumentStore
import ShelfModels
import TerminalKit

/// Where a tab's rows come from, and only what the two ways of having them differ in: a
/// collection held whole (`WholeCollectionRows`) has every row and sorts and searches them
/// here; a window of a query (`QueryWindowRows`) has its query sort and filter them on the
/// server and reads only the rows shown. The tab (`ListTab`) presents either the same way.
@MainActor
protocol RowSource: AnyObject {
    associatedtype Model: Codable & Sendable
    var collection: CollectionReference { get }
    /// The columns the rows are sorted, searched and queried by: the presentation's, until the
    /// tab gives those a collection without a model makes from `columnSample`.
    var columns: [Column<Model>] { get set }
    /// The documents a collection without a model makes its columns from; nil until read.
    var columnSample: [DocumentSnapshot]? { get }

    var isLoaded: Bool { get }
    /// While a large collection is first read: documents read so far, of how many.
    var loadProgress: (read: Int, total: Int?)? { get }
    /// Why the rows are not what they should be (the listener's error, no documents, an index
    /// being made on the server); nil when they are.
    var statusMessage: String? { get }
    var rowCount: Int { get }
    /// See `CollectionTab.documentCount` and `countScope`.
    var documentCount: Int { get }
    var countScope: String? { get }
    /// Changes whenever the rows do.
    var version: Int { get }
    /// The document at a row with its model or why it does not decode; nil while not read.
    func row(at index: Int) -> LiveCollection<Model>.Row?
    func index(of documentID: String) -> Int?
    var documentIDs: [String] { get }
    /// How many rows do not decode, when that is cheap to know.
    var problemCount: Int? { get }

    /// Every row is held, so the tab filters them here; otherwise the source's query does.
    var holdsEveryRow: Bool { get }
    /// The rows in `sort`'s order; of a source that does not hold every row, also through
    /// `filter` (its query's filter), which one that does leaves to the tab.
    func rows(by sort: SortOrder, filter: ListFilter) -> ListedRows
    /// Of `candidates` (row indices, all read), those whose search text holds `needle`
    /// (folded: `TextFolding`), in their order.
    func rows(among candidates: [Int], containing needle: [UInt8]) -> [Int]
    /// Why the filter makes no query the store accepts, nil when it does.
    func problem(with filter: ListFilter) -> String?
    /// The keys and texts made ahead for sorting and searching here (`CollectionTab`'s).
    func missingSortKeys(for sort: SortOrder) -> Int
    func makeSortKeys(for sort: SortOrder, budget: Int) -> Int
    func missingSearchTexts() -> Int
    func makeSearchTexts(budget: Int) -> Int

    /// The tab is shown and left; the list shows these rows now.
    func show()
    func hide()
    func show(rows: Range<Int>)
}

extension ListFilter {
    /// The query of the filter's comparisons on `collection`, a name read as a column's title
    /// or else a field's path.
    func comparisonsQuery<Model>(on collection: CollectionReference, columns: [Column<Model>]) -> Query {
        query(on: collection, field: { Column.field(named: $0, among: columns) })
    }
}

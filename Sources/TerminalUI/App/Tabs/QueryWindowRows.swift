import DocumentStore
import ShelfModels
import TerminalKit

/// The rows of a window of a query (`QueryWindow`), for a collection on a database server too
/// large to hold whole: its rows are the query's positions, so the list's order and filter
/// are the query's. A sort by a column is the query ordered by the column's field, a filter's
/// comparisons are the query's filters and its words the query's words (found in any text
/// field, by the server's index), and only the rows shown and a margin are read; a row not
/// read yet draws as "…".
@MainActor
final class QueryWindowRows<Model: Codable & Sendable>: RowSource {
    let collection: CollectionReference
    var columns: [Column<Model>]
    /// The window of the order and filter listed now; replaced when they change.
    private(set) var window: QueryWindow
    private var listed: (sort: SortOrder, filter: ListFilter)
    /// What earlier windows' versions add up to, so `version` only grows.
    private var versionBase = 0
    private let pageSize: Int
    /// The counts of this tab's windows, one at a time (a filter typed replaces its window
    /// at each key).
    private let counts = CountQueue()
    /// For tests: how many windows were made (each a query of its own).
    private(set) var windowsMade = 1

    init(collection: CollectionReference, columns: [Column<Model>], sort: SortOrder, pageSize: Int = 100) {
        self.collection = collection
        self.columns = columns
        self.pageSize = pageSize
        listed = (sort, ListFilter(""))
        window = QueryWindow(Self.query(on: collection, sort: sort, filter: ListFilter(""), columns: columns),
                             pageSize: pageSize, counts: counts)
        // The server makes each column's order ready now, the list's own first, so that a first
        // sort by a column need not wait for its index (a minute at ten million documents).
        for column in [sort.column] + columns.indices.filter({ $0 != sort.column }) {
            Self.query(on: collection, sort: SortOrder(column: column), filter: ListFilter(""), columns: columns).prepareOrder()
        }
    }

    /// The documents of the first window read.
    var columnSample: [DocumentSnapshot]? { window.documents.isEmpty ? nil : window.documents }

    /// Loaded once counted: the rows are then known, each read as it is shown. A refused
    /// filter lists nothing at once, as on a collection held whole.
    var isLoaded: Bool { window.count != nil || listedRefusal != nil }
    var loadProgress: (read: Int, total: Int?)? { nil }
    var statusMessage: String? { window.error ?? orderBeingMade ?? noneHaveTheSortedField }

    /// The first page in an order waits for the server to make its index (once per database).
    private var orderBeingMade: String? {
        guard window.isWaitingForItsOrder else { return nil }
        return "Making the index of \(collection.path) by \(sortedColumnTitle ?? "id") on the server, once per database; rows follow"
    }

    /// A list sorted by a field is the query ordered by it, which leaves out the documents
    /// without the field, as Firestore's orders do: when that is all of them, say so (a
    /// folder's list, held whole, puts them last instead).
    private var noneHaveTheSortedField: String? {
        guard window.count == 0, listed.filter.isEmpty, let title = sortedColumnTitle else { return nil }
        return "No document has \(title): sorted by a field, the list holds only the documents "
            + "that have it, as Firestore's queries do (s sorts by the next column)"
    }

    /// The title of the column the list is sorted by; nil when sorted by id.
    private var sortedColumnTitle: String? {
        columns.indices.contains(listed.sort.column) ? columns[listed.sort.column].spec.title : nil
    }

    var rowCount: Int { window.count ?? window.first + window.documents.count }
    /// The count of the last window listed without a filter (the first one, at least).
    private var unfilteredCount: Int?
    var documentCount: Int { listed.filter.isEmpty ? rowCount : unfilteredCount ?? rowCount }
    var countScope: String? { sortedColumnTitle.map { "with \($0)" } }
    var holdsEveryRow: Bool { false }
    var version: Int { versionBase + window.version }
    func index(of documentID: String) -> Int? { window.position(of: documentID) }
    var documentIDs: [String] { window.documents.map(\.documentID) }
    /// Counting them would decode the whole collection.
    var problemCount: Int? { nil }

    /// The rows of the documents read, each decoded once when drawn, kept while the window's
    /// documents stay.
    private var rows: (version: Int, byID: [String: LiveCollection<Model>.Row]) = (-1, [:])

    func row(at index: Int) -> LiveCollection<Model>.Row? {
        guard let snapshot = window.document(at: index) else { return nil }
        if rows.version != version { rows = (version, [:]) }
        if let row = rows.byID[snapshot.documentID] { return row }
        let row = LiveCollection<Model>.Row(snapshot)
        rows.byID[snapshot.documentID] = row
        return row
    }

    /// The query's positions, through its filter: a filter refused (`problem(with:)`) lists
    /// nothing, as on a collection held whole.
    func rows(by sort: SortOrder, filter: ListFilter) -> ListedRows {
        if listed.sort != sort || listed.filter != filter { replaceWindow(sort: sort, filter: filter) }
        return .all(listedRefusal == nil ? rowCount : 0)
    }

    /// Why the filter listed is refused (`problem(with:)`), nil when it is not.
    private var listedRefusal: String?

    private func replaceWindow(sort: SortOrder, filter: ListFilter) {
        if listed.filter.isEmpty, let count = window.count { unfilteredCount = count }
        window.stop()
        versionBase += window.version + 1
        listed = (sort, filter)
        listedRefusal = problem(with: filter)
        window = QueryWindow(Self.query(on: collection, sort: sort, filter: filter, columns: columns), pageSize: pageSize, counts: counts)
        windowsMade += 1
    }

    /// The query a list is the window of: the filter's comparisons and its words (one text, as
    /// a list held whole matches them), ordered by the sorted column's field (ties by id, as
    /// Firestore orders them).
    static func query(on collection: CollectionReference, sort: SortOrder, filter: ListFilter, columns: [Column<Model>]) -> Query {
        var filtered = filter.comparisonsQuery(on: collection, columns: columns)
        if !filter.text.isEmpty { filtered = filtered.containing(words: [filter.text]) }
        guard columns.indices.contains(sort.column) else { return filtered }
        let field = Column.field(named: columns[sort.column].spec.title, among: columns)
        return filtered.order(by: field, descending: !sort.ascending)
    }

    /// A comparison Firestore refuses, or words a store cannot match (one served over
    /// Firestore's protocol, which has no text search).
    func problem(with filter: ListFilter) -> String? {
        filter.isEmpty ? nil : Self.query(on: collection, sort: listed.sort, filter: filter, columns: columns).refusal
    }

    /// Among the rows read (n/N), those whose text holds the words, as the server's were found.
    func rows(among candidates: [Int], containing needle: [UInt8]) -> [Int] {
        candidates.filter { index in
            window.document(at: index).map { Column.searchText(of: $0, among: columns).contains(needle) } ?? false
        }
    }

    /// Every row is in the query's order already: no key to make.
    func missingSortKeys(for sort: SortOrder) -> Int { 0 }
    func makeSortKeys(for sort: SortOrder, budget: Int) -> Int { rowCount }
    /// The server finds the words.
    func missingSearchTexts() -> Int { 0 }
    func makeSearchTexts(budget: Int) -> Int { rowCount }

    /// The window starts with the first rows a frame shows (`show(rows:)`), so its first read
    /// is of them and a margin.
    func show() {}
    func hide() {}
    func show(rows: Range<Int>) {
        window.show(rows)
        window.start()
    }
}

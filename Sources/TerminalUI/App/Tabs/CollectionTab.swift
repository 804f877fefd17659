import DocumentStore
import ShelfModels
import TerminalKit

/// One tab: a collection shown as a list and a detail pane, with its form. The app talks to
/// every tab through this, whatever the model behind it; the one kind of tab is `ListTab`.
@MainActor
protocol CollectionTab: AnyObject {
    /// The collection's path, which tells tabs apart: its id for a top-level collection
    /// (`books`), the whole path for a document's (`books/dune/reviews`).
    var collectionID: String { get }
    var title: String { get }
    var isLoaded: Bool { get }
    /// While a large collection is first read: documents read so far, of how many.
    var loadProgress: (read: Int, total: Int?)? { get }
    /// The listener's error, "No documents in 'x' collection", or a failed write.
    var statusMessage: String? { get }
    /// Its folder was removed on disk while Shelf ran: the tab stays and says so.
    var isGone: Bool { get set }
    /// The tab's rows: every document of a collection held whole (the list's filter narrows
    /// them afterwards); of a window of a query, the query's count, its filter included.
    var rowCount: Int { get }
    /// The collection's documents, for the status line's "110 of 50,000": `rowCount`, but for a
    /// window listed through a filter, as last counted without one.
    var documentCount: Int { get }
    /// Which of the collection's documents the counts are of, when not all: a window sorted by
    /// a field holds only the documents that have it ("with Title"), as Firestore's orders do.
    var countScope: String? { get }
    /// Changes whenever the rows do.
    var version: Int { get }
    /// The document at a row; nil while it is not read (a window of a query reads the rows
    /// shown, and a frame shows "…" until they come).
    func snapshot(at index: Int) -> DocumentSnapshot?
    func index(of documentID: String) -> Int?
    /// The ids of the documents read: all of them for a collection held whole.
    var documentIDs: [String] { get }
    /// Whether every row is held (a collection listened to whole), rather than a window of a
    /// query whose rows elsewhere are read when shown.
    var holdsEveryRow: Bool { get }
    /// The list's columns, and the order a tab opens with.
    var columns: [ColumnSpec] { get }
    var defaultSort: SortOrder { get }
    /// The rows the list shows: every row index in `sort`'s order through `filter`. When the
    /// filter only adds words to the one `earlier` was listed through (same rows, same
    /// order), only `earlier`'s rows can still match.
    func rows(by sort: SortOrder, matching filter: ListFilter, narrowing earlier: ListedRows?) -> ListedRows
    /// How many rows have no key for `sort` yet: `order(by:)` makes them first.
    func missingSortKeys(for sort: SortOrder) -> Int
    /// Makes up to `budget` more of the keys `sort` needs; returns how many rows have theirs.
    func makeSortKeys(for sort: SortOrder, budget: Int) -> Int
    /// How many rows have no search text yet: a filter's words make them first.
    func missingSearchTexts() -> Int
    /// Makes up to `budget` more search texts; returns how many rows have theirs.
    func makeSearchTexts(budget: Int) -> Int
    /// The `candidates` (row indices) that pass the filter's comparisons and whose id or
    /// shown fields contain its words (folded: `TextFolding`), in the candidates' order.
    func matching(_ filter: ListFilter, among candidates: ListedRows) -> ListedRows
    /// Why the filter's comparisons make no query Firestore accepts (a field path with an
    /// empty part), nil when they do.
    func problem(with filter: ListFilter) -> String?
    func tableRow(at index: Int, mode: ColorMode) -> TabRow
    func detail(at index: Int, mode: ColorMode) -> TabDetail
    /// What names the document to a person (its title or name), when it has one.
    func name(at index: Int) -> String?
    /// How many rows do not decode, when that is cheap to know (small collections).
    var problemCount: Int? { get }
    /// Called when the tab is shown and left.
    func show()
    func hide()
    /// The list shows these rows now: a window of a query reads what it lacks of them, and a
    /// margin (a collection held whole has them all).
    func show(rows: Range<Int>)
    /// The same collection as a window of a query (`QueryWindowRows`), for one too large to hold
    /// whole on a server; nil for a tab that is one already.
    func windowed() -> CollectionTab?
    /// The form for a new document (nil index) or the one at `index`.
    func form(editing index: Int?) -> FormSpec
    /// Keeps a write's failure for `statusMessage` (one that worked clears it); returns how
    /// the failure reads ("" for none).
    func noteWrite(_ error: (any Error)?) -> String
    /// Drops the last failed write's message from `statusMessage` (the server it could not
    /// reach is back).
    func forgetWriteError()
}

extension CollectionTab {
    /// A collection of a document (`books/dune/reviews`) rather than a top-level one.
    var isSubcollection: Bool { collectionID.contains("/") }
}

/// What the detail pane shows for one document.
struct TabDetail {
    var swatch: Color?
    var lines: [DetailLine]
}

import DocumentStore
import ShelfModels
import TerminalKit

/// The one tab: a collection's rows from a `RowSource` (held whole, or a window of a query),
/// presented by a `Presentation`. What a list does (its columns, filtering the rows it holds,
/// its messages, its write errors, drawing its rows) is written here once for both sources.
@MainActor
final class ListTab<Source: RowSource>: CollectionTab {
    typealias Model = Source.Model
    let source: Source
    let presentation: Presentation<Model>

    init(source: Source, presentation: Presentation<Model>) {
        self.source = source
        self.presentation = presentation
    }

    var collection: CollectionReference { source.collection }
    var collectionID: String { collection.path }
    var title: String { presentation.title }
    var columns: [ColumnSpec] { shownColumns.map(\.spec) }
    var defaultSort: SortOrder { presentation.defaultSort }

    /// Whether the columns were made from the documents (a collection without a model).
    private var columnsDerived = false
    /// The presentation's columns; for a collection without a model, those its documents'
    /// fields make (`Presentation.columnsFromDocuments`) once some are read, kept from then
    /// on and given to the source, which sorts and searches by them.
    var shownColumns: [Column<Model>] {
        if !columnsDerived, let derive = presentation.columnsFromDocuments, let sample = source.columnSample {
            source.columns = derive(sample)
            columnsDerived = true
        }
        return source.columns
    }

    /// The source, once the columns it sorts, searches and queries by are those shown.
    private var sourceByShownColumns: Source {
        _ = shownColumns
        return source
    }

    // MARK: Messages

    var isGone = false
    private var writeError: String?

    var statusMessage: String? {
        if isGone { return goneMessage }
        return writeError ?? source.statusMessage
    }

    /// A folder removed on disk says so; a collection on a server has no folder.
    private var goneMessage: String {
        collection.firestore.keepsDocumentsAsFiles
            ? "The '\(collectionID)' folder is gone: it was removed on disk" : "The '\(collectionID)' collection is gone"
    }

    func noteWrite(_ error: (any Error)?) -> String {
        writeError = error.map { DocumentProblem(path: collectionID, error: $0).message }
        return writeError ?? ""
    }

    func forgetWriteError() { writeError = nil }

    // MARK: Rows

    var isLoaded: Bool { source.isLoaded }
    var loadProgress: (read: Int, total: Int?)? { source.loadProgress }
    var rowCount: Int { source.rowCount }
    var documentCount: Int { source.documentCount }
    var countScope: String? { source.countScope }
    var version: Int { source.version }
    var holdsEveryRow: Bool { source.holdsEveryRow }
    var documentIDs: [String] { source.documentIDs }
    var problemCount: Int? { source.problemCount }
    func row(at index: Int) -> LiveCollection<Model>.Row? { source.row(at: index) }
    func index(of documentID: String) -> Int? { source.index(of: documentID) }

    /// The source's rows in `sort`'s order; those of a source holding every row then filtered
    /// here (`matching`), only `earlier`'s when the filter narrows them.
    func rows(by sort: SortOrder, matching filter: ListFilter, narrowing earlier: ListedRows?) -> ListedRows {
        let ordered = sourceByShownColumns.rows(by: sort, filter: filter)
        guard source.holdsEveryRow, !filter.isEmpty else { return ordered }
        return matching(filter, among: earlier ?? ordered)
    }

    /// The candidates whose document passes the filter's comparisons and whose text holds
    /// its words; a row not read yet (of a window) passes no filter.
    func matching(_ filter: ListFilter, among candidates: ListedRows) -> ListedRows {
        var matched = Array(candidates)
        if !filter.comparisons.isEmpty {
            let query = filter.comparisonsQuery(on: collection, columns: shownColumns)
            matched = matched.filter { index in row(at: index).map { query.matches($0.snapshot) } ?? false }
        }
        let needle = TextFolding.fold(filter.text)
        return ListedRows(needle.isEmpty ? matched : sourceByShownColumns.rows(among: matched, containing: needle))
    }

    func problem(with filter: ListFilter) -> String? { sourceByShownColumns.problem(with: filter) }

    func missingSortKeys(for sort: SortOrder) -> Int { sourceByShownColumns.missingSortKeys(for: sort) }
    func makeSortKeys(for sort: SortOrder, budget: Int) -> Int { sourceByShownColumns.makeSortKeys(for: sort, budget: budget) }
    func missingSearchTexts() -> Int { sourceByShownColumns.missingSearchTexts() }
    func makeSearchTexts(budget: Int) -> Int { sourceByShownColumns.makeSearchTexts(budget: budget) }

    func show() { source.show() }
    func hide() { source.hide() }
    func show(rows: Range<Int>) { source.show(rows: rows) }

    /// A collection held whole becomes a window of a query of the same collection, presented
    /// the same way; a window stays one.
    func windowed() -> CollectionTab? {
        guard source.holdsEveryRow else { return nil }
        return ListTab<QueryWindowRows<Model>>(windowOf: collection, presentation: presentation)
    }
}

extension ListTab {
    /// A tab over a collection held whole, listening through `subscribe` while shown.
    convenience init<M>(whole live: LiveCollection<M>, presentation: Presentation<M>, subscribe: @escaping () -> Void,
                        unsubscribe: @escaping () -> Void = {}) where Source == WholeCollectionRows<M> {
        self.init(source: WholeCollectionRows(live: live, columns: presentation.columns, subscribe: subscribe, unsubscribe: unsubscribe),
                  presentation: presentation)
    }

    /// A tab over a window of a query of the collection, first in the presentation's order.
    convenience init<M>(windowOf collection: CollectionReference, presentation: Presentation<M>,
                        pageSize: Int = 100) where Source == QueryWindowRows<M> {
        self.init(source: QueryWindowRows(collection: collection, columns: presentation.columns, sort: presentation.defaultSort,
                                          pageSize: pageSize),
                  presentation: presentation)
    }
}

import DocumentStore
import ShelfModels
import TerminalKit

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

import DocumentStore
import TerminalKit

/// One column of a tab: its layout, the text of a cell as drawn from the decoded model, an
/// optional decoration drawn before the text (a colour's swatch) that is neither searched nor
/// highlighted, and the cell as the stored document gives it (`stored`), which every row is
/// sorted and searched by without being decoded.
struct Column<Model> {
    var spec: ColumnSpec
    var style: Style = .plain
    var text: (Model, DocumentSnapshot) -> String
    var prefix: ((Model, ColorMode) -> Span)?
    /// The stored field the column shows, which a filter's comparison by the column's title
    /// (`pages>400`) compares: its title in lower case unless given.
    let field: String
    /// The cell from the stored document: by default the value at `field` as `StoredCell`
    /// writes it; nil when the document has none (such rows sort last). A column whose drawn
    /// text the model makes otherwise gives its own, so order and search follow what is drawn.
    let stored: @Sendable (DocumentSnapshot) -> StoredCell?
    /// Folds `stored`'s text into a row's search text: for the default cell, read in place
    /// from the stored value (`StoredCell.folding`), to the same bytes.
    let searchFold: @Sendable (DocumentSnapshot, inout [UInt8]) -> Void

    init(_ spec: ColumnSpec, field: String? = nil, style: Style = .plain, text: @escaping (Model, DocumentSnapshot) -> String,
         prefix: ((Model, ColorMode) -> Span)? = nil, stored: (@Sendable (DocumentSnapshot) -> StoredCell?)? = nil) {
        self.spec = spec
        self.field = field ?? spec.title.lowercased()
        self.style = style
        self.text = text
        self.prefix = prefix
        if let stored {
            self.stored = stored
            searchFold = { snapshot, bytes in
                if let text = stored(snapshot)?.text { TextFolding.fold(text, into: &bytes) }
            }
        } else {
            let path = self.field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            self.stored = StoredCell.field(path)
            searchFold = StoredCell.folding(path)
        }
    }

    /// A column over the model alone.
    init(_ spec: ColumnSpec, field: String? = nil, style: Style = .plain, prefix: ((Model, ColorMode) -> Span)? = nil,
         stored: (@Sendable (DocumentSnapshot) -> StoredCell?)? = nil, _ text: @escaping (Model) -> String) {
        self.init(spec, field: field, style: style, text: { model, _ in text(model) }, prefix: prefix, stored: stored)
    }
}

extension Column {
    /// The field a name stands for (in a comparison, or a column sorted by): the document's
    /// id for `id`, a column's field by its title (case ignored), else the name itself as a
    /// dotted path.
    static func field(named name: String, among columns: [Column]) -> FieldPath {
        if name.lowercased() == "id" { return FieldPath.documentID() }
        let path = columns.first { $0.spec.title.lowercased() == name.lowercased() }?.field ?? name
        return FieldPath(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// Folds rows' searchable texts from their stored documents: the id and every column's
    /// cell, on lines of their own so no match spans two, appended to one buffer. It runs for
    /// every row on every core: the columns' folds are taken out once (copying a column a row
    /// retains each of its closures, atomically, on objects the cores share), and the id and
    /// the cells are folded from their bytes, without making their strings.
    static func searchTextFolding(among columns: [Column]) -> @Sendable (DocumentSnapshot, inout [UInt8]) -> Void {
        let cells = columns.map(\.searchFold)
        return { snapshot, bytes in
            snapshot.key.withTextUTF8 { TextFolding.fold(utf8: $0, into: &bytes) }
            for fold in cells {
                bytes.append(0x0A)
                fold(snapshot, &bytes)
            }
        }
    }

    /// A row's searchable text, as `searchTextFolding` folds it.
    static func searchText(of snapshot: DocumentSnapshot, among columns: [Column]) -> SearchText {
        var bytes: [UInt8] = []
        searchTextFolding(among: columns)(snapshot, &bytes)
        return SearchText(folded: bytes)
    }
}

/// One cell of a row as the tab gives it: drawn as `prefix`, then `text` in `style` with the
/// filter's matches highlighted.
struct TableCell {
    var prefix: [Span] = []
    var text: String
    var style: Style = .plain
}

/// A row of a tab: its cells, or, for a document that does not decode, one line saying why;
/// "…" while it is not read.
enum TabRow {
    case cells([TableCell])
    case broken(ListRow)
    case unread
}

import DocumentStore

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
    var field: String
    /// The cell from the stored document: by default the value at `field` as `StoredCell`
    /// writes it; nil when the document has none (such rows sort last). A column whose drawn
    /// text the model makes otherwise gives its own, so order and search follow what is drawn.
    var stored: (DocumentSnapshot) -> StoredCell?

    init(_ spec: ColumnSpec, field: String? = nil, style: Style = .plain, text: @escaping (Model, DocumentSnapshot) -> String,
         prefix: ((Model, ColorMode) -> Span)? = nil, stored: ((DocumentSnapshot) -> StoredCell?)? = nil) {
        self.spec = spec
        self.field = field ?? spec.title.lowercased()
        self.style = style
        self.text = text
        self.prefix = prefix
        self.stored = stored ?? StoredCell.field(self.field.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// A column over the model alone.
    init(_ spec: ColumnSpec, field: String? = nil, style: Style = .plain, prefix: ((Model, ColorMode) -> Span)? = nil,
         stored: ((DocumentSnapshot) -> StoredCell?)? = nil, _ text: @escaping (Model) -> String) {
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

    /// Makes rows' searchable texts from their stored documents: the id and every column's
    /// cell, on lines of their own so no match spans two, folded straight into one buffer. It
    /// runs for every row on every core: the columns' cells are taken out once (copying a
    /// column a row retains each of its closures, atomically, on objects the cores share), and
    /// the id is folded from its bytes, without making its string.
    static func searchTextMaker(among columns: [Column]) -> (DocumentSnapshot) -> SearchText {
        let cells = columns.map(\.stored)
        return { snapshot in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(128)
            snapshot.key.withTextUTF8 { TextFolding.fold(utf8: $0, into: &bytes) }
            for cell in cells {
                bytes.append(0x0A)
                if let text = cell(snapshot)?.text { TextFolding.fold(text, into: &bytes) }
            }
            return SearchText(folded: bytes)
        }
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

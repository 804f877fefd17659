import DocumentStore
import Foundation
import ShelfModels
import TerminalKit

/// Draws the app: `render(model, size)` gives the screen as cells, where the cursor goes and
/// what a click on each cell means. It only reads the model: what follows the size and the
/// rows is brought up to date before (`AppModel.frame`). Only the rows in view are built, so a
/// 100,000-document list costs what 30 rows do.
@MainActor
public enum AppView {
    public struct Screen {
        public var canvas: Canvas
        /// Where the terminal's cursor should be (a text field being edited), or nil to hide it.
        public var cursor: Point?
        /// What a click at each cell means.
        public var hits: HitMap
    }

    /// Rows of documents in the list: the screen less the tab bar, the frame, the column
    /// header, the status and hint lines.
    public static func listHeight(for size: Size) -> Int { max(1, size.height - 6) }

    public static func render(_ model: AppModel, size: Size) -> Screen {
        var canvas = Canvas(size: size)
        guard !TooSmall.applies(to: size) else {
            TooSmall(actual: size).render(into: &canvas, area: canvas.bounds)
            return Screen(canvas: canvas, cursor: nil, hits: .none)
        }
        var cursor: Point?
        let bounds = canvas.bounds
        let tab = model.tab
        let layout = ScreenLayout(size: size)
        let listArea = layout.list, detailArea = layout.detail
        let bar = tabBar(model)
        bar.render(into: &canvas, area: layout.tabBar)

        let visible = model.state.listed(tab).rows
        let position = model.state.shownSelection(in: visible)?.position
        let (table, columns, firstRow) = drawList(model, tab: tab, visible: visible, position: position, into: &canvas, area: listArea)
        let hits = HitMap(layout: layout, tabBar: bar, table: table, columns: columns, firstRow: firstRow, rowCount: visible.count)

        if case .form(let session) = model.state.mode {
            cursor = drawForm(session, mode: model.colorMode, into: &canvas, area: detailArea)
        } else if case .raw(let view) = model.state.mode {
            drawRaw(view, into: &canvas, area: detailArea)
        } else if model.state.showsLookup {
            drawLookup(model.books.lookup, into: &canvas, area: detailArea)
        } else {
            drawDetail(model, tab: tab, index: position.map { visible[$0] }, into: &canvas, area: detailArea)
        }

        // Status line: a text being typed, or the latest message, and the counts. While the
        // server cannot be reached the line is bold, says why when no message is shown, and
        // says "offline" beside the counts whatever the message.
        let statusRow = bounds.row(size.height - 2)
        let ready = model.state.isReady(tab)
        // A window not counted yet knows only the rows it read: no number until the count.
        var counts = !tab.holdsEveryRow && !tab.isLoaded ? "counting…"
            : countText(visible: ready ? visible.count : tab.rowCount, total: tab.documentCount) + (tab.countScope.map { " " + $0 } ?? "")
        if let problems = tab.problemCount, problems > 0 { counts += " · \(problems) not decoding" }
        if model.isReadOnly { counts += " · read-only" }
        let offline = model.connection?.statusLine
        if offline != nil { counts += " · offline" }
        let statusStyle = Style(bold: offline != nil, reverse: true)
        switch model.state.mode {
        case .filter(var field), .prompt(_, var field, _):
            let prompt: String
            var completion: String?
            switch model.state.mode {
            case .prompt(.open, _, let listing):
                prompt = "Open \(tab.collectionID)/"
                completion = listing?.line(naming: "id", in: tab.collectionID)
            case .prompt(.goTo, _, let listing):
                prompt = "Go to row or tab: "
                completion = listing?.line(naming: "tab", in: nil)
            default:
                prompt = "Filter: "
            }
            let fieldArea = Rect(x: 1 + prompt.displayWidth, y: statusRow.y, width: max(1, statusRow.width / 2 - prompt.displayWidth), height: 1)
            // Tab's listing of ids, else the counts, in what the field leaves.
            let right = completion ?? counts
            StatusBar(left: "", right: right.truncated(toWidth: max(0, statusRow.width - fieldArea.maxX - 2)), style: statusStyle)
                .render(into: &canvas, area: statusRow)
            canvas.write(prompt, at: Point(x: 1, y: statusRow.y), style: Style(bold: true, reverse: true))
            field.style = Style(reverse: true)
            field.render(into: &canvas, area: fieldArea)
            cursor = field.cursorPosition(in: fieldArea)
        default:
            let message = model.notice ?? model.writes.progress ?? offline ?? tab.statusMessage ?? (ready ? "" : waitingText(model, tab))
            StatusBar(left: message, right: counts, style: statusStyle).render(into: &canvas, area: statusRow)
        }
        HintBar(bindings: model.bindings).render(into: &canvas, area: bounds.row(size.height - 1))

        switch model.state.mode {
        case .help(let offset):
            drawOverlay(help(model), offset: offset, into: &canvas, area: bounds)
        case .messages(let offset):
            drawOverlay(messageLog(model.status.history, width: bounds.width), offset: offset, into: &canvas, area: bounds)
        case .confirm(let confirmation):
            confirmation.dialog(in: model).render(into: &canvas, area: bounds)
            cursor = nil
        default: break
        }
        return Screen(canvas: canvas, cursor: cursor, hits: hits)
    }

    /// `?`: every key, with why a key does nothing now.
    static func help(_ model: AppModel) -> HelpOverlay {
        HelpOverlay(sections: [HelpSection(title: "Browsing", bindings: model.browseBindings),
                               HelpSection(title: "In a form", bindings: Keymap.form),
                               HelpSection(title: "Opening by id (o)", bindings: Keymap.openPrompt),
                               HelpSection(title: "Going to a row or a tab (:)", bindings: Keymap.goToPrompt),
                               HelpSection(title: "In the JSON view (v)", bindings: Keymap.raw),
                               HelpSection(title: "Mouse (off with --no-mouse)", bindings: Keymap.mouse),
                               HelpSection(title: "Anywhere", bindings: Keymap.global)],
                    footer: "Esc or ? to close")
    }

    /// A scrolling overlay at the mode's offset (which `AppModel.settle` keeps within its end).
    private static func drawOverlay(_ overlay: HelpOverlay, offset: Int, into canvas: inout Canvas, area: Rect) {
        var overlay = overlay
        overlay.offset = min(offset, overlay.maxOffset(in: area))
        overlay.render(into: &canvas, area: area)
    }

    /// `m`: the last messages, newest first, each whole (wrapped to the screen's width) after
    /// the time it was shown.
    static func messageLog(_ messages: [StatusNotice.Message], width: Int) -> HelpOverlay {
        // The box's border and margins take 4 columns, the time and its gap 10.
        let textWidth = max(10, width - 4 - 10)
        var lines: [[Span]] = messages.reversed().flatMap { message in
            TextWrapper.wrap(message.text, width: textWidth).enumerated().map { index, line in
                [Span((index == 0 ? clockTime(message.time) : "").padded(toWidth: 8) + "  ", style: Style(dim: true)), Span(line)]
            }
        }
        if lines.isEmpty { lines = [[Span("No messages yet", style: Style(dim: true))]] }
        return HelpOverlay(title: "Messages", lines: lines, footer: "Esc or m to close")
    }

    /// "14:05:09", local time, whatever the locale (the log's column is 8 wide).
    static func clockTime(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    static func tabBar(_ model: AppModel) -> TabBar {
        TabBar(titles: model.tabs.enumerated().map { "\($0.offset + 1) \($0.element.title)" }, selected: model.activeTab)
    }

    /// The list; returns its layout, the tab's column drawn in each of its columns, and the
    /// place in the list of its first row in view, for the hit map.
    private static func drawList(_ model: AppModel, tab: CollectionTab, visible: ListedRows, position: Int?,
                                 into canvas: inout Canvas, area: Rect) -> (TableLayout, columns: [Int], firstRow: Int) {
        let filter = model.state.filterText(for: tab)
        // The marker column ("!") is kept for every row, the header's too, so all line up.
        let markerWidth = ScreenLayout.markerWidth
        var inner = Frame().inner(of: area)
        let arrangement = model.state.arrangement(of: tab)
        let (columns, layout) = model.state.columnsInView(of: tab)
        let sort = model.state.sortOrder(of: tab)
        // Sorted by a column out of view (left out at this width, scrolled off or hidden): the
        // rows keep its order, which the header cannot mark, so the title names it.
        let sortPlace = columns.prefix(layout.shownCount).firstIndex(of: sort.column)
        let hiddenSort = sortPlace != nil || !tab.columns.indices.contains(sort.column)
            ? "" : " by \(tab.columns[sort.column].title) \(sort.ascending ? "▲" : "▼")"
        let title = tab.title + hiddenSort + (filter.isEmpty ? "" : " /\(filter)")
        let ready = model.state.isReady(tab)
        // While the rest loads, the footer says how far (the rows read so far are listed).
        let footer = ready && tab.isLoaded ? positionText(position, count: visible.count) : waitingText(model, tab)
        Frame(title: title, footer: footer, isFocused: true).render(into: &canvas, area: area)
        guard inner.height > 1 else { return (layout, columns, 0) }
        let cursor = arrangement.showsCursor ? arrangement.cursorColumn.flatMap { columns.firstIndex(of: $0) } : nil
        canvas.write(layout.header(sortedBy: sortPlace, ascending: sort.ascending, cursor: cursor),
                     at: Point(x: inner.x + markerWidth, y: inner.y), clippedTo: inner.width - markerWidth)
        inner = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        let offset = ListState(selected: position, offset: model.state.current.list.offset)
            .keptVisible(rowCount: visible.count, height: inner.height).offset
        let window = visible.dropFirst(offset).prefix(inner.height)
        let highlighter = Highlighter(query: model.state.highlightedText(for: tab))
        let rows = window.map { index -> ListRow in
            switch tab.tableRow(at: index, mode: model.colorMode) {
            case .broken(let row): return row
            case .unread: return ListRow([Span("…", style: Style(dim: true))])
            case .cells(let cells):
                return ListRow(layout.row(zip(columns.map { cells[$0] }, layout.widths).map { cell, width in
                    cell.prefix + highlighter.spans(cell.text, style: cell.style, maxWidth: width)
                }))
            }
        }
        let empty = rows.isEmpty ? emptyText(model, tab, filter: filter, ready: ready) : ""
        ListWidget(rows: rows, state: ListState(selected: position.map { $0 - offset }, offset: 0), emptyText: empty,
                   reservedMarkerWidth: markerWidth)
            .render(into: &canvas, area: inner)
        // A folder of other files (notes.txt) lists nothing: say what a document is, below
        // what the empty list says (wrapped, as the list wraps it).
        if ready && tab.isLoaded && tab.rowCount == 0 && !tab.isGone && model.documents.hasFiles {
            let below = TextWrapper.wrap(empty, width: inner.width, maxLines: inner.height).count
            if inner.height > below {
                canvas.write("Only *.json files are documents".truncated(toWidth: inner.width), at: Point(x: inner.x, y: inner.y + below),
                             style: Style(dim: true), clippedTo: inner.width)
            }
        }
        return (layout, columns, offset)
    }

    /// What an empty list says: what it waits for, why its filter is refused (worked out only
    /// then, not each frame), that nothing matches, or that nothing is there.
    private static func emptyText(_ model: AppModel, _ tab: CollectionTab, filter: String, ready: Bool) -> String {
        guard ready else { return waitingText(model, tab) }
        if filter.isEmpty { return tab.statusMessage ?? "No documents" }
        if let problem = tab.problem(with: ListFilter(filter)) { return ListFilter.refusal(of: filter, problem) }
        return "Nothing matches \"\(filter)\""
    }

    /// "17/47", grouped as counts are ("1/30,047"); nil for an empty list.
    static func positionText(_ position: Int?, count: Int) -> String? {
        guard let position, count > 0 else { return nil }
        return "\((position + 1).thousandsSeparated)/\(count.thousandsSeparated)"
    }

    /// "1,234 of 100,000 documents": grouped as the loading line groups them.
    static func countText(visible: Int, total: Int) -> String {
        (visible == total ? "" : "\(visible.thousandsSeparated) of ") + "\(total.thousandsSeparated) document\(total == 1 ? "" : "s")"
    }

    /// "Loading books… 12,345 of 100,000", then "Sorting books by Title… 45,000 of 100,000"
    /// or "Filtering books… 45,000 of 100,000".
    static func waitingText(_ model: AppModel, _ tab: CollectionTab) -> String {
        guard tab.isLoaded else { return loadingText(tab) }
        let of = "… \((model.state.lists.sortProgress?.made ?? 0).thousandsSeparated) of \(tab.rowCount.thousandsSeparated)"
        // Search texts are made once the rows are ordered.
        if model.state.lists.isOrdered(tab) { return "Filtering \(tab.collectionID)" + of }
        let sort = model.state.sortOrder(of: tab)
        let column = tab.columns.indices.contains(sort.column) ? " by \(tab.columns[sort.column].title)" : ""
        return "Sorting \(tab.collectionID)\(column)" + of
    }

    /// "Loading books… 12,345 of 100,000"
    static func loadingText(_ tab: CollectionTab) -> String {
        guard let progress = tab.loadProgress else { return "Loading \(tab.collectionID)…" }
        guard let total = progress.total else { return "Loading \(tab.collectionID)… \(progress.read.thousandsSeparated)" }
        return "Loading \(tab.collectionID)… \(progress.read.thousandsSeparated) of \(total.thousandsSeparated)"
    }

    /// A scrolled text in a pane: the widget at its offset, kept within the end, and where.
    struct Pane {
        var widget: DetailWidget
        var inner: Rect
        /// Whether there is more below what shows.
        var hasMoreBelow: Bool {
            widget.layout(width: inner.width, limit: widget.offset + inner.height + 1).count > widget.offset + inner.height
        }

        init(lines: [DetailLine], offset: Int, inner: Rect) {
            widget = DetailWidget(lines: lines, offset: offset)
            widget.offset = widget.clampedOffset(width: inner.width, height: inner.height)
            self.inner = inner
        }
    }

    /// The document at `index` as its detail shows it in `area`: its lines scrolled by J/K,
    /// and its colour's swatch above them when it has one and there is room.
    static func detailPane(_ model: AppModel, tab: CollectionTab, index: Int, snapshot: DocumentSnapshot, area: Rect) -> (pane: Pane, swatch: (Color, Rect)?) {
        let path = snapshot.reference.path
        var inner = Frame().inner(of: area).insetBy(dx: 1, dy: 0)
        let detail = tab.detail(at: index, mode: model.colorMode)
        var swatch: (Color, Rect)?
        if let color = detail.swatch, inner.height > 8 {
            swatch = (color, Rect(x: inner.x, y: inner.y, width: inner.width, height: 3))
            inner = Rect(x: inner.x, y: inner.y + 4, width: inner.width, height: inner.height - 4)
        }
        var lines = detail.lines
        if let collections = model.state.documentCollections, collections.path == path, !collections.ids.isEmpty {
            lines.insert(DetailLine("Collections", "\(collections.ids.joined(separator: ", ")) (c opens \(collections.ids.count == 1 ? "it" : "them"))"), at: 0)
        }
        if model.showsDocumentTimes, let times = model.times(of: snapshot) {
            lines += [DetailLine("Created", localTime(times.created)), DetailLine("Updated", localTime(times.updated))]
        }
        let offset = model.state.detailScroll?.path == path ? model.state.detailScroll!.offset : 0
        return (Pane(lines: lines, offset: offset, inner: inner), swatch)
    }

    /// The selected document's detail; the footer says which way there is more.
    private static func drawDetail(_ model: AppModel, tab: CollectionTab, index: Int?, into canvas: inout Canvas, area: Rect) {
        guard let index, let snapshot = tab.snapshot(at: index) else {
            Frame(title: "Detail").render(into: &canvas, area: area)
            if index != nil { canvas.write("…", at: Frame().inner(of: area).origin, style: Style(dim: true), clippedTo: 1) }
            return
        }
        let (pane, swatch) = detailPane(model, tab: tab, index: index, snapshot: snapshot, area: area)
        let offset = pane.widget.offset, below = pane.hasMoreBelow
        let arrows = (offset > 0 ? "K ↑" : "") + (offset > 0 && below ? " " : "") + (below ? "J ↓" : "")
        Frame(title: snapshot.reference.path, footer: arrows.isEmpty ? nil : arrows + " more").render(into: &canvas, area: area)
        if let (color, swatchArea) = swatch {
            Swatch(color: color, mode: model.colorMode).render(into: &canvas, area: swatchArea)
        }
        pane.widget.render(into: &canvas, area: pane.inner)
    }

    /// A document's time in the detail: local, to the second (`2026-11-26 23:38:19`), in the
    /// proleptic Gregorian calendar as Firestore's timestamps are. The C library's, not a
    /// `DateFormatter`: that is ICU's, whose first use reads ICU's data (tens of
    /// milliseconds from a cold page cache, in the first frame).
    static func localTime(_ time: Timestamp) -> String {
        var seconds = time_t(time.seconds), fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return "\(time.seconds) s after 1970 (UTC)" }
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(fields.tm_year + 1900, 4) + "-" + padded(fields.tm_mon + 1, 2) + "-" + padded(fields.tm_mday, 2) + " "
            + padded(fields.tm_hour, 2) + ":" + padded(fields.tm_min, 2) + ":" + padded(fields.tm_sec, 2)
    }

    /// `v`: the document's file as stored, following changes on disk; the footer says how to
    /// scroll and close.
    private static func drawRaw(_ view: RawJSONView, into canvas: inout Canvas, area: Rect) {
        let pane = rawPane(view, area: area)
        let widget = pane.widget
        let arrows = (widget.offset > 0 ? "↑" : "") + (pane.hasMoreBelow ? "↓" : "")
        Frame(title: view.path + ".json", footer: "v or Esc closes" + (arrows.isEmpty ? "" : " · \(arrows) more"), isFocused: true)
            .render(into: &canvas, area: area)
        widget.render(into: &canvas, area: pane.inner)
    }

    /// The JSON view's text in `area`, at its offset kept within the end.
    static func rawPane(_ view: RawJSONView, area: Rect) -> Pane {
        Pane(lines: view.lines, offset: view.offset, inner: Frame().inner(of: area))
    }

    private static func drawLookup(_ lookup: MappingSimpleTypesViewModel, into canvas: inout Canvas, area: Rect) {
        let frame = Frame(title: "Opened as Book (MappingSimpleTypesViewModel)")
        frame.render(into: &canvas, area: area)
        let inner = frame.inner(of: area).insetBy(dx: 1, dy: 0)
        var lines: [DetailLine]
        if let error = lookup.errorMessage {
            lines = [DetailLine("Error", error, valueStyle: Style(bold: true))]
        } else if lookup.book.id == nil {
            lines = [DetailLine("", "Reading…")]
        } else {
            let book = lookup.book
            lines = [DetailLine("Id", book.id ?? ""), DetailLine("Title", book.title, valueStyle: Style(bold: true)),
                     DetailLine("Author", book.author), DetailLine("Pages", "\(book.numberOfPages)")]
        }
        lines.append(DetailLine("", "Esc or a move returns to the list's detail", valueStyle: Style(dim: true)))
        DetailWidget(lines: lines).render(into: &canvas, area: inner)
    }

    /// The form in the detail pane; returns where the cursor goes.
    private static func drawForm(_ session: FormSession, mode: ColorMode, into canvas: inout Canvas, area: Rect) -> Point? {
        let frame = Frame(title: session.spec.title, footer: session.isDirty ? "edited" : nil, isFocused: true)
        frame.render(into: &canvas, area: area)
        let inner = frame.inner(of: area).insetBy(dx: 1, dy: 0)
        session.widget.render(into: &canvas, area: inner)
        // A live swatch at the right end of each colour field's row (colour values are short).
        for (index, field) in session.spec.fields.enumerated() where field.rule.previewsColor {
            // A colour is a few characters; a long text is no colour, and not worth copying.
            guard session.widget.fields[index].field.characters.count <= 32,
                  let color = field.rule.preview(session.widget.fields[index].text) else { continue }
            let fieldArea = session.widget.fieldArea(index, in: inner)
            guard fieldArea.width >= 20 else { continue }
            Swatch(color: color, mode: mode, showsHex: false)
                .render(into: &canvas, area: Rect(x: fieldArea.maxX - 6, y: fieldArea.y, width: 6, height: 1))
        }
        return session.widget.cursorPosition(in: inner)
    }
}

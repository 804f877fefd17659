import DocumentStore
import TerminalKit

/// The shown tab's list as the state alone decides it: its rows through the filter being
/// typed, the selection that follows its document, and the moves that change them.
extension AppState {
    var tab: CollectionTab { tabSet.shown }

    /// The shown tab's state.
    var current: TabState {
        get { lists[tab] }
        set { lists[tab] = newValue }
    }

    /// The text the tab's rows are filtered by: the one being typed, while it is.
    func filterText(for tab: CollectionTab) -> String {
        if case .filter(let field) = mode, tab === self.tab { return field.text }
        return lists[tab].filter ?? ""
    }

    /// The filter's prompt is open.
    var isTypingFilter: Bool {
        if case .filter = mode { return true }
        return false
    }

    /// The words highlighted in the rows: the filter's, else those of the one Esc cleared.
    func highlightedText(for tab: CollectionTab) -> String {
        ListFilter(filterText(for: tab).isEmpty ? lists[tab].search ?? "" : filterText(for: tab)).text
    }

    /// n/N: selects the next (or previous) row after the selection that the cleared filter
    /// matches, round from the end to the start; says which match it is of how many.
    mutating func goToMatch(forward: Bool) -> Reply {
        guard let search = current.search else { return Reply(notice: "No matches to go to: filter with / first, then Esc") }
        let tab = tab
        let visible = visibleRows(of: tab)
        let matched = Set(tab.matching(ListFilter(search), among: visible))
        let positions = visible.indices.filter { matched.contains(visible[$0]) }
        guard !positions.isEmpty else { return Reply(notice: "Nothing matches \"\(search.shownInMessage)\"") }
        let here = selection(in: visible) ?? -1
        let next = forward ? positions.first { $0 > here } ?? positions[0] : positions.last { $0 < here } ?? positions[positions.count - 1]
        select(position: next, in: visible)
        let number = positions.firstIndex(of: next).map { $0 + 1 } ?? 1
        return Reply(notice: "Match \(number.thousandsSeparated) of \(positions.count.thousandsSeparated) for \"\(search.shownInMessage)\"")
    }

    /// Indices into the tab's rows that pass the filter, in the tab's sort order.
    mutating func visibleRows(of tab: CollectionTab) -> ListedRows { visible(of: tab).rows }
    mutating func visible(of tab: CollectionTab) -> VisibleRows { lists.visible(of: tab, filter: filterText(for: tab)) }
    /// The rows listed now, read only (for drawing).
    func listed(_ tab: CollectionTab) -> VisibleRows { lists.listed(tab, filter: filterText(for: tab)) }
    func isOrdered(_ tab: CollectionTab) -> Bool { lists.isOrdered(tab) }
    func isReady(_ tab: CollectionTab) -> Bool { lists.isReady(tab, filter: filterText(for: tab)) }
    func sortOrder(of tab: CollectionTab) -> SortOrder { lists.sortOrder(of: tab) }

    /// The shown list's selected position, read only (`TabLists.shownSelection`).
    func shownSelection(in visible: ListedRows) -> (position: Int, found: Bool)? {
        lists.shownSelection(of: tab, in: visible, filter: filterText(for: tab))
    }

    /// The shown list's selected position, the selection following its document from now on.
    mutating func selection(in visible: ListedRows) -> Int? { lists.selection(of: tab, in: visible, filter: filterText(for: tab)) }

    /// The row of the selected document, the selection following it from now on.
    var selectedIndex: Int? {
        mutating get {
            let visible = visibleRows(of: tab)
            return selection(in: visible).map { visible[$0] }
        }
    }

    /// The selected row's document once read, the selection following it from now on.
    var selectedSnapshot: DocumentSnapshot? {
        mutating get { selectedIndex.flatMap { tab.snapshot(at: $0) } }
    }

    /// The selected document, the selection following it from now on.
    var selectedDocument: DocumentReference? {
        mutating get { selectedSnapshot?.reference }
    }

    /// What a key that acts on the selected document says when there is none to `verb`: the
    /// list is empty, or its row is still being read from the server.
    mutating func nothingSelected(to verb: String) -> Reply {
        Reply(notice: selectedIndex == nil ? "Nothing to \(verb): the list is empty" : "Nothing to \(verb) yet: the row is still being read")
    }

    mutating func select(position: Int?, in visible: ListedRows) {
        detailScroll = nil  // a move, even back to the same document, shows the top
        lists.select(position, of: tab, in: visible)
    }

    mutating func keepSelectionInView(height: Int) { lists.keepSelectionInView(of: tab, filter: filterText(for: tab), height: height) }

    /// Moves the selection `delta` rows, within the list.
    mutating func move(_ delta: Int) {
        let visible = visibleRows(of: tab)
        guard !visible.isEmpty else { return }
        showsLookup = false
        select(position: max(0, min(visible.count - 1, (selection(in: visible) ?? 0) + delta)), in: visible)
    }

    /// Scrolls the selected document's detail `delta` rows (`settle` stops it at the end).
    mutating func scrollDetail(by delta: Int) {
        guard let path = selectedDocument?.path else { return }
        let offset = detailScroll?.path == path ? detailScroll!.offset : 0
        detailScroll = (path, max(0, offset + delta))
    }

    mutating func switchTab(to index: Int) {
        if tabSet.show(index) { showsLookup = false }
    }

    /// Sorts the shown tab; the selected document stays on the row of the pane it was on
    /// where it can (its rows all moved, so the first row in view from before means nothing).
    /// A window of a query shows the new order's first rows: where the document went is not
    /// known without reading. Returns what the status line says.
    mutating func sort(by sort: SortOrder) -> String {
        guard tab.holdsEveryRow else {
            current.sort = sort
            current.list = ListState(selected: 0, offset: 0)
            current.selectedID = nil
            return sortedText(sort)
        }
        let visible = visibleRows(of: tab)
        let rowOnScreen = selection(in: visible).map { $0 - current.list.offset }
        current.sort = sort
        if let rowOnScreen, isOrdered(tab), let position = selection(in: visibleRows(of: tab)) {
            current.list.offset = max(0, position - rowOnScreen)
        }
        return sortedText(sort)
    }

    private func sortedText(_ sort: SortOrder) -> String {
        "Sorted by \(tab.columns[sort.column].title) \(sort.ascending ? "▲ ascending" : "▼ descending")"
    }
}

import Foundation
import TerminalKit
/// Every tab's list: its state (`TabState`, by collection id), the rows it lists in its order
/// and through its filter, the selected row, and a large tab's sorting, done a slice a frame.
/// `filter` is the text the rows are filtered by now (the one being typed, while it is).
@MainActor
struct TabLists {
    var states: [String: TabState] = [:]

    /// Up to this many missing sort keys are made within the frame that needs them (a change
    /// needs only those of its new rows: the others follow their rows). More are made
    /// `sortSlice` rows a frame (`advanceSorting`): 100,000 of them take most of a second of
    /// one core, which no frame should wait for. A slice is made on every core (`RowCache`),
    /// so it is as many more rows as there are cores.
    var sortAtOnceLimit = 20_000
    var sortSlice = 5_000 * ProcessInfo.processInfo.activeProcessorCount
    /// How long a slice of search texts should take: the first of a run (the frame that shows
    /// the key that asked for them) is `sortSlice` rows, each next one as many rows as the last
    /// made in that time (never fewer), so a million rows' texts take some twenty frames rather
    /// than a hundred (each drawn, a million rows' frame some milliseconds). Sort keys stay
    /// `sortSlice` rows a slice: timed, their run ended sooner in the frame that orders a
    /// million rows, which the next key (`S`) then waited for. Nil: `sortSlice` rows each.
    var sliceTime: Duration? = .milliseconds(50)
    /// The rows the last full slice of texts made, and the time it took.
    private var textPace: (rows: Int, took: Duration)?
    /// The last slice made texts, and more remain.
    private var makingTexts = false
    /// Rows of the shown tab that have their sort key, or their search text, while they are
    /// being made.
    private(set) var sortProgress: (made: Int, total: Int)?

    subscript(tab: CollectionTab) -> TabState {
        get { states[tab.collectionID] ?? TabState() }
        set { states[tab.collectionID] = newValue }
    }

    /// The order the tab's rows are listed in: the one chosen by s/S, else the tab's own.
    func sortOrder(of tab: CollectionTab) -> SortOrder { states[tab.collectionID]?.sort ?? tab.defaultSort }

    /// Whether the tab's rows can be listed in its order now.
    func isOrdered(_ tab: CollectionTab) -> Bool {
        tab.missingSortKeys(for: sortOrder(of: tab)) <= sortAtOnceLimit
    }

    /// Whether the tab's rows can be matched against `filter`'s words now: no words, or the
    /// rows' search texts made, but for as many as a frame makes (more are made a slice a
    /// frame, as sort keys are: a million of them take seconds).
    func isSearchable(_ tab: CollectionTab, filter: String) -> Bool {
        TextFolding.fold(ListFilter(filter).text).isEmpty || tab.missingSearchTexts() <= sortAtOnceLimit
    }

    /// Loaded, or loading with rows already read, ordered and searchable through `filter`:
    /// its rows can be listed, and keys that act on them handled (on what is there while the
    /// rest loads).
    func isReady(_ tab: CollectionTab, filter: String) -> Bool {
        (tab.isLoaded || tab.rowCount > 0) && isOrdered(tab) && isSearchable(tab, filter: filter)
    }

    /// Makes the next slice of the tab's sort keys, then of its search texts when `filter`
    /// has words, or is being typed (`typing`: the texts begin as the prompt opens, while
    /// the first word is typed, and the rows stay listed meanwhile). Returns true while more
    /// remain.
    mutating func advanceSorting(of tab: CollectionTab, filter: String, typing: Bool = false) -> Bool {
        if !isOrdered(tab) {
            sortProgress = (tab.makeSortKeys(for: sortOrder(of: tab), budget: sortSlice), tab.rowCount)
            makingTexts = false
        } else if !isSearchable(tab, filter: filter) || textsWanted(tab, typing: typing) {
            sortProgress = (textSlice(in: tab), tab.rowCount)
        }
        let more = !isOrdered(tab) || !isSearchable(tab, filter: filter) || textsWanted(tab, typing: typing)
        if !more {
            sortProgress = nil
            makingTexts = false
        }
        return more
    }

    /// The prompt is open on a loaded tab with more texts missing than a frame makes.
    private func textsWanted(_ tab: CollectionTab, typing: Bool) -> Bool {
        typing && tab.isLoaded && tab.missingSearchTexts() > sortAtOnceLimit
    }

    /// Makes a slice of the tab's search texts, timed to size the next; says how many rows
    /// have theirs.
    private mutating func textSlice(in tab: CollectionTab) -> Int {
        guard let sliceTime else { return tab.makeSearchTexts(budget: sortSlice) }
        let continuing = makingTexts
        makingTexts = true
        let rows = continuing ? textPace.map { Int(min(Double($0.rows) * (sliceTime / $0.took), Double(tab.rowCount))) } ?? 0 : 0
        let slice = max(sortSlice, rows), started = ContinuousClock.now
        let done = tab.makeSearchTexts(budget: slice)
        let took = ContinuousClock.now - started
        // Only a full slice tells the pace: the last may have had fewer rows left.
        if done < tab.rowCount && took > .zero { textPace = (slice, took) }
        return done
    }

    /// The rows the tab lists, kept in its state for the next call (the keys' way).
    mutating func visible(of tab: CollectionTab, filter: String) -> VisibleRows {
        let rows = listed(tab, filter: filter)
        if rows.version >= 0 { self[tab].visible = rows }
        return rows
    }

    /// The rows the tab lists now: reads the rows last kept, never writes them, so drawing
    /// can call it.
    func listed(_ tab: CollectionTab, filter: String) -> VisibleRows {
        let needle = TextFolding.fold(filter)
        let sort = sortOrder(of: tab)
        let version = tab.version
        let cached = states[tab.collectionID]?.visible
        // Still making sort keys (`advanceSorting`): the same rows stay in their last order
        // (a new column chosen with s; while a collection loads, its rows only grow, so the
        // order of those read before stays right). Before the first order is ready, the rows
        // show as the store gives them (by id), so a large collection is on screen as soon as
        // it is read; they take the column's order when its keys are made.
        guard isOrdered(tab) && isSearchable(tab, filter: filter) else {
            if let cached, cached.needle == needle, cached.version == version || (!tab.isLoaded && cached.version >= 0) { return cached }
            let rows = ListedRows.all(tab.isLoaded && needle.isEmpty ? tab.rowCount : 0)
            return VisibleRows(version: -1, sort: sort, needle: needle, rows: rows, rowCount: tab.rowCount)
        }
        if let cached, cached.version == version, cached.sort == sort, cached.needle == needle { return cached }
        // Typing more words narrows the last result: only its rows can still match (not so a
        // comparison: `pages<4` then `pages<40` matches more).
        let parsed = ListFilter(filter)
        let narrows = parsed.comparisons.isEmpty
            && (cached.map { $0.version == version && $0.sort == sort && !$0.needle.isEmpty && needle.starts(with: $0.needle) } ?? false)
        let rows = tab.rows(by: sort, matching: parsed, narrowing: narrows ? cached?.rows : nil)
        return VisibleRows(version: version, sort: sort, needle: needle, rows: rows, rowCount: tab.rowCount)
    }

    /// The list position of the selected document: the same document while it exists, even
    /// as others come and go (`found`); otherwise the nearest position. Reads only, so drawing
    /// can call it; `selection` also remembers the document.
    func shownSelection(of tab: CollectionTab, in visible: ListedRows, filter: String) -> (position: Int, found: Bool)? {
        guard !visible.isEmpty else { return nil }
        let state = self[tab]
        if let id = state.selectedID, let index = tab.index(of: id), let position = listed(tab, filter: filter).position(of: index) {
            return (position, true)
        }
        return (min(state.list.selected ?? 0, visible.count - 1), false)
    }

    /// `shownSelection`, and from now on the selection follows the document at it.
    mutating func selection(of tab: CollectionTab, in visible: ListedRows, filter: String) -> Int? {
        guard let (position, found) = shownSelection(of: tab, in: visible, filter: filter) else { return nil }
        if found {
            self[tab].awaitsSelection = false
        } else if !self[tab].awaitsSelection && isOrdered(tab) && tab.isLoaded {
            // Not while a document Shelf just wrote is awaited (the nearest row shows
            // meanwhile), nor while the rows wait for their order (shown by id meanwhile) or
            // are still being read (rows read later may sort above it): the top row is
            // selected then, unless a key moved it.
            self[tab].selectedID = tab.snapshot(at: visible[position])?.documentID
        }
        return position
    }

    /// Selects the row at `position` of `visible` (none for nil): a move wins over waiting
    /// for a document just written.
    mutating func select(_ position: Int?, of tab: CollectionTab, in visible: ListedRows) {
        self[tab].awaitsSelection = false
        self[tab].list.selected = position
        self[tab].selectedID = position.flatMap { tab.snapshot(at: visible[$0])?.documentID }
    }

    /// Selects `id` now if it is listed, else as soon as the listener lists it.
    mutating func selectAsSoonAsListed(_ id: String, in collectionID: String) {
        states[collectionID, default: TabState()].selectedID = id
        states[collectionID, default: TabState()].awaitsSelection = true
    }

    /// Moves the list's first row in view as little as possible so the selection is in a
    /// pane `height` rows high, with no empty rows below the last (`ListState.keptVisible`).
    /// Done after every key and click as well as before drawing: were it done only then, keys
    /// typed in one burst would start from a first row left by an earlier key (`G` then
    /// `g j j` would leave two rows above the view), and the screen would depend on when
    /// frames happened to be drawn.
    mutating func keepSelectionInView(of tab: CollectionTab, filter: String, height: Int) {
        let visible = visible(of: tab, filter: filter).rows
        let selected = selection(of: tab, in: visible, filter: filter)
        self[tab].list.offset = ListState(selected: selected, offset: self[tab].list.offset)
            .keptVisible(rowCount: visible.count, height: height).offset
    }
}

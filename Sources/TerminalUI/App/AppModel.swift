import DocumentStore
import Foundation
import ShelfModels

/// The whole app's state, changed only by `apply(_:)` over a closed set of actions (keys,
/// clicks, frames, listings, finished effects). Drawing is `AppView.render`'s, a pure function
/// of this; writes, reads and listings are effects run off the main thread whose results come
/// back as actions; the view models' listeners are what the `frame` action takes in.
@MainActor
public final class AppModel {
    public let store: Firestore
    /// The documents as stored, for `v`, `Y` and the editor.
    let documents: StoredDocuments
    public var colorMode: ColorMode
    let books: BooksViewModel
    let colors: MappingColorsViewModel
    private(set) var tabSet: CollectionTabs
    var tabs: [CollectionTab] { tabSet.all }
    var activeTab: Int { tabSet.active }
    var mode: Mode = .browse
    /// Every tab's list: its state, rows, selection and sorting.
    var lists = TabLists()
    /// The form being typed in, if any (`Mode.form`).
    var form: FormSession? { mode.form }
    /// The text being typed in the status line (a filter, an id), if any.
    var textField: TextField? {
        switch mode {
        case .filter(let field), .openPrompt(let field, _): field
        default: nil
        }
    }
    /// A one-off message for the status line, e.g. "Saved colors/abc"; also where the store's
    /// plain-form write errors go.
    var notice: String? {
        get { status.text }
        set { status.set(newValue) }
    }
    let status = StatusNotice()
    /// On a server: whether it answers (see `ServerConnection`); nil for a folder.
    let connection: ServerConnection?
    /// Set by `o` on the books tab: the guide's fetch by id, shown in the detail pane.
    var showsLookup = false
    /// The data folder cannot be written: keys that write say so and leave the hint line.
    /// Settable for tests (as root, every folder is writable).
    var isReadOnly: Bool
    /// Rows of the detail scrolled off its top, for the document at `path`; another document
    /// starts at the top.
    var detailScroll: (path: String, offset: Int)?
    /// The collections of a document, as last listed: its detail names them when it is the
    /// selected one.
    var documentCollections: (path: String, ids: [String])?
    /// The detail ends with the document's create and update times (`shelf` turns it on; off,
    /// rendering tests compare screens that do not change with the time they run at).
    public var showsDocumentTimes = false
    /// The times of the document last shown, read once per snapshot of it.
    private var shownTimes: (snapshot: DocumentSnapshot, times: DocumentTimes?)?
    /// The snapshot whose times are being read.
    private var timesBeingRead: DocumentSnapshot?
    /// What `u` puts back and `Ctrl-R` does again.
    var history = UndoHistory()
    /// Runs the writes off the main thread (`BackgroundEffects`; a test's runner in tests).
    let effects: any EffectRunner
    /// The writes in flight, and what waits for them.
    let writes = PendingWrites()
    /// Called after an effect's result is taken in, between keys: the app draws again, and
    /// quits when a quit waited for the writes.
    public var afterEffect: ((Outcome) -> Void)?

    /// Where a half-typed form is kept on SIGTERM or SIGHUP, and found at the next start.
    public let draftFile: DraftFile?
    /// A draft to reopen once its tab has loaded.
    private var draftWaitingForLoad: FormDraft?

    public convenience init(store: Firestore, colorMode: ColorMode, notice: String? = nil, draftFile: DraftFile? = nil) {
        self.init(store: store, colorMode: colorMode, notice: notice, draftFile: draftFile, effects: BackgroundEffects())
    }

    init(store: Firestore, colorMode: ColorMode, notice: String? = nil, draftFile: DraftFile? = nil, effects: any EffectRunner) {
        self.effects = effects
        self.draftFile = draftFile
        self.store = store
        documents = StoredDocuments(directory: store.directory)
        self.colorMode = colorMode
        isReadOnly = store.isReadOnly
        connection = store.directory.isFileURL ? nil : ServerConnection(server: store.directory.absoluteString)
        books = BooksViewModel(db: store)
        colors = MappingColorsViewModel(db: store)
        let languages = CustomizeMappingViewModel(db: store)
        let offices = MappingGeoPointsViewModel(db: store)
        let articles = MappingEnumsViewModel(db: store)
        // Colors listens only while shown, as the sample's screen does; the others keep
        // listening once shown, so coming back to a large collection costs nothing.
        tabSet = CollectionTabs([
            ModelTab(live: books.live, presentation: KnownPresentations.books(books),
                     subscribe: books.subscribe, unsubscribe: {}),
            ModelTab(live: colors.live, presentation: KnownPresentations.colors(colors),
                     subscribe: colors.subscribe, unsubscribe: colors.unsubscribe),
            ModelTab(live: languages.live, presentation: KnownPresentations.languages(languages),
                     subscribe: languages.subscribe, unsubscribe: {}),
            ModelTab(live: offices.live, presentation: KnownPresentations.offices(offices),
                     subscribe: offices.subscribe, unsubscribe: {}),
            ModelTab(live: articles.live, presentation: KnownPresentations.articles(articles),
                     subscribe: articles.subscribe, unsubscribe: {}),
        ])
        refreshCollections()
        self.notice = notice
        status.reportWriteErrors(of: store)
        if isReadOnly && self.notice == nil { self.notice = "The folder \(store.directory.path) is read-only: browsing only" }
        tab.show()
        if let draft = draftFile?.load() { mode = .confirm(.reopenDraft(draft)) }
    }

    var tab: CollectionTab { tabSet.shown }

    /// The shown tab's state.
    var current: TabState {
        get { lists[tab] }
        set { lists[tab] = newValue }
    }

    // MARK: Collections made and removed while running

    /// Adds a tab for each collection folder made since the last look (by another program's
    /// `mkdir`), among the tabs after the known ones in byte order of names, and marks the tabs
    /// whose folder is gone (or back). One readdir of the data folder (on a server, one query,
    /// which also tells `connection` whether it answers); returns whether the tabs changed, so
    /// the caller draws again.
    @discardableResult
    public func refreshCollections() -> Bool { applyCollections(CollectionListing(of: store, selected: selectedDocument)) }

    /// `refreshCollections` with the listing already made.
    @discardableResult
    private func applyCollections(_ listing: CollectionListing) -> Bool {
        var changed = false
        if let selected = listing.selected, documentCollections.map({ $0 != selected }) ?? true {
            documentCollections = selected
            changed = true
        }
        let listed: [String]
        switch listing.collections {
        case .success(let ids):
            listed = ids
            if serverAnswered(), let connection { notice = "Back online: \(connection.server)" }
        case .failure(let error):
            connection?.note(error)
            return changed
        }
        return tabSet.take(listed: listed, store: store) || changed
    }

    /// The server answered: no longer offline, and the failures of writes tried while it was
    /// are forgotten (they said it could not be reached; the form kept says the rest). Returns
    /// whether it was offline.
    @discardableResult
    func serverAnswered() -> Bool {
        guard let connection, connection.isOffline else { return false }
        connection.note(nil)
        for tab in tabs { tab.forgetWriteError() }
        return true
    }

    // MARK: Rows as the list shows them

    /// Indices into the tab's rows that pass the filter, in the tab's sort order.
    func visibleRows(of tab: CollectionTab) -> [Int] { visible(of: tab).rows }
    func visible(of tab: CollectionTab) -> VisibleRows { lists.visible(of: tab, filter: filterText(for: tab)) }
    /// The rows listed now, read only (for drawing).
    func listed(_ tab: CollectionTab) -> VisibleRows { lists.listed(tab, filter: filterText(for: tab)) }
    func isOrdered(_ tab: CollectionTab) -> Bool { lists.isOrdered(tab) }
    func isReady(_ tab: CollectionTab) -> Bool { lists.isReady(tab) }
    func sortOrder(of tab: CollectionTab) -> SortOrder { lists.sortOrder(of: tab) }

    /// The text the tab's rows are filtered by: the one being typed, while it is.
    func filterText(for tab: CollectionTab) -> String {
        if case .filter(let field) = mode, tab === self.tab { return field.text }
        return lists[tab].filter ?? ""
    }

    /// The shown list's selected position, read only (`TabLists.shownSelection`).
    func shownSelection(in visible: [Int]) -> (position: Int, found: Bool)? {
        lists.shownSelection(of: tab, in: visible, filter: filterText(for: tab))
    }

    /// The shown list's selected position, the selection following its document from now on.
    func selection(in visible: [Int]) -> Int? { lists.selection(of: tab, in: visible, filter: filterText(for: tab)) }

    private func select(position: Int?, in visible: [Int]) {
        detailScroll = nil  // a move, even back to the same document, shows the top
        lists.select(position, of: tab, in: visible)
    }

    var selectedIndex: Int? {
        let visible = visibleRows(of: tab)
        return selection(in: visible).map { visible[$0] }
    }

    /// The selected document, whose collections the once-a-second look lists.
    public var selectedDocument: DocumentReference? { selectedIndex.map { tab.snapshot(at: $0).reference } }

    // MARK: Keys


    private func handleKey(_ key: Key, pageSize: Int) -> Outcome {
        if Keymap.global.action(for: key) == .suspend { return .suspend }
        if Keymap.global.action(for: key) == .quit {
            // Nothing typed is lost unasked: Ctrl-C in a changed form asks as Esc does;
            // a second Ctrl-C answers yes. No write is lost unsaid: quitting waits for them.
            if case .confirm(.quit) = mode { return .quit }
            guard form?.isDirty == true else { return quitAfterWrites() }
            mode = .confirm(.quit(before: mode))
            return .keepRunning
        }
        notice = nil  // a message lasts until the next key
        // Once one key waits for the tab to load, every key after it waits too, bound or
        // not, so "/river 7" replays as typed instead of losing its unbound letters.
        if !keysWaitingForLoad.isEmpty, key != .resize {
            keysWaitingForLoad.append((key, pageSize))
            return .keepRunning
        }
        defer { keepSelectionInView(height: pageSize) }
        switch mode {
        case .browse: return handleBrowse(key, pageSize: pageSize)
        case .filter(let field): handleFilter(key, field)
        case .openPrompt(let field, let completion): handleOpenPrompt(key, field, completion)
        case .form(let session): handleForm(key, session)
        case .help(let offset): handleOverlay(Keymap.help, key, offset: offset, pageSize: pageSize) { .help(offset: $0) }
        case .messages(let offset): handleOverlay(Keymap.messages, key, offset: offset, pageSize: pageSize) { .messages(offset: $0) }
        case .raw(let view): return handleRaw(key, view, pageSize: pageSize)
        case .confirm(.quit) where Keymap.confirm.action(for: key) == .yes:
            return .quit
        case .confirm(let confirmation): handleConfirm(confirmation, key)
        }
        return .keepRunning
    }

    func keepSelectionInView(height: Int) { lists.keepSelectionInView(of: tab, filter: filterText(for: tab), height: height) }

    /// Keys that act on a tab's documents, pressed before its first snapshot arrived: they are
    /// replayed once it has, so a script typing "3jj" gets what it typed.
    private var keysWaitingForLoad: [(key: Key, pageSize: Int)] = []

    /// Replays the keys that waited for the shown tab to load (`AppAction.replayWaitingKeys`).
    private func replayKeysWaitingForLoad() -> Outcome {
        if let draft = draftWaitingForLoad, tab.isLoaded, isReady(tab) {
            draftWaitingForLoad = nil
            reopen(draft)
        }
        guard isReady(tab), !keysWaitingForLoad.isEmpty else { return .keepRunning }
        let waiting = keysWaitingForLoad
        keysWaitingForLoad = []
        for (index, (key, pageSize)) in waiting.enumerated() {
            let outcome = apply(.key(key, pageSize: pageSize))
            if outcome != .keepRunning {
                // Keys after one that leaves the screen wait for the screen to come back.
                keysWaitingForLoad = Array(waiting[(index + 1)...])
                return outcome
            }
        }
        return .keepRunning
    }

    private func handleBrowse(_ key: Key, pageSize: Int) -> Outcome {
        if let action = Keymap.browse.action(for: key), !isReady(tab) && Self.actsOnDocuments.contains(action) {
            keysWaitingForLoad.append((key, pageSize))
            return .keepRunning
        }
        guard let binding = bindings.binding(for: key) else {
            if case .character(let c) = key { notice = "\"\(c)\" does nothing here: press ? for the keys" }
            return .keepRunning
        }
        if let reason = binding.disabledReason {
            notice = "\(reason): \(key.label) does nothing"
            return .keepRunning
        }
        let action = binding.action
        let visible = visibleRows(of: tab)
        switch action {
        case .up: move(-1)
        case .down: move(1)
        case .pageUp: move(-max(1, pageSize - 1))
        case .pageDown: move(max(1, pageSize - 1))
        case .top: move(-max(1, visible.count))
        case .bottom: move(max(1, visible.count))
        case .nextTab: switchTab(to: (activeTab + 1) % tabs.count)
        case .previousTab: switchTab(to: (activeTab + tabs.count - 1) % tabs.count)
        case .tabNumber:
            if case .character(let c) = key, let number = c.wholeNumberValue {
                if number <= tabs.count { switchTab(to: number - 1) } else { notice = "There is no tab \(number): \(tabs.count) tabs" }
            }
        case .filter:
            mode = .filter(TextField(text: current.filter ?? ""))
        case .clearFilter:
            if current.filter != nil { current.filter = nil; notice = "Filter cleared" }
            showsLookup = false
        case .open:
            mode = .openPrompt(TextField(), completion: nil)
        case .add: openForm(editing: nil)
        case .edit:
            guard let index = selectedIndex else { notice = "Nothing to edit: the list is empty"; break }
            // A file that cannot be read has no fields for a form: it is edited in the editor,
            // whole, so nothing is lost.
            if tab.snapshot(at: index).readError != nil { return openInEditor(index) }
            // The form would show the document as it was before that write.
            let reference = tab.snapshot(at: index).reference
            if writes.isWriting(reference) { notice = "\(reference.path) is being written: e edits it once that is done"; break }
            openForm(editing: index)
        case .openInEditor:
            guard let index = selectedIndex else { notice = "Nothing to open: the list is empty"; break }
            return openInEditor(index)
        case .delete:
            if let index = selectedIndex {
                mode = .confirm(.delete(id: tab.snapshot(at: index).documentID))
            } else {
                notice = "Nothing to delete: the list is empty"
            }
        case .undo: undoOrRedo(redo: false)
        case .redo: undoOrRedo(redo: true)
        case .collections: openCollections()
        case .rawView:
            guard let index = selectedIndex else { notice = "Nothing to show: the list is empty"; break }
            mode = .raw(RawJSONView(snapshot: tab.snapshot(at: index), text: documents.text(of:)))
        case .copyJSON: return copySelectedJSON()
        case .copyPath:
            guard let reference = selectedDocument else { notice = "Nothing to copy: the list is empty"; break }
            notice = "Copied \(reference.path) to the clipboard"
            return .copyToClipboard(reference.path)
        case .sortNext, .sortReverse:
            let current = sortOrder(of: tab)
            // Only the columns on screen: a sort by one out of sight would look like none.
            let shown = TableLayout(columns: tab.columns, width: max(1, ScreenLayout(size: size).header.width)).shownCount
            sort(by: action == .sortNext ? current.next(columnCount: shown) : current.reversed)
        case .help: mode = .help(offset: 0)
        case .messages: mode = .messages(offset: 0)
        case .scrollDetailDown: scrollDetail(by: 1)
        case .scrollDetailUp: scrollDetail(by: -1)
        case .quit: return quitAfterWrites()
        default: break
        }
        return .keepRunning
    }

    /// `c`: each collection of the selected document becomes a tab (once), after the others
    /// so the numbers of those stay, and the first of them is shown.
    /// Listing them is an effect: on a server, a call the keys do not wait for.
    private func openCollections() {
        guard let reference = selectedDocument else { notice = "Nothing selected: the list is empty"; return }
        run(.listCollections(reference))
    }

    private func openCollections(of reference: DocumentReference, listed: Result<[String], any Error>) {
        let ids: [String]
        switch listed {
        case .success(let listed): ids = listed.sorted(by: CollectionTabs.precedes)
        case .failure(let error):
            notice = "Cannot list the collections of \(reference.path): \(error)"
            return
        }
        documentCollections = (reference.path, ids)
        let paths = ids.map { "\(reference.path)/\($0)" }
        guard let first = paths.first else { notice = "\(reference.path) has no collections"; return }
        tabSet.add(paths, store: store)
        switchTab(to: tabs.firstIndex { $0.collectionID == first } ?? activeTab)
        notice = ids.count == 1 ? "Opened \(first)"
            : "Opened the \(ids.count) collections of \(reference.path): \(ids.joined(separator: ", "))"
    }

    /// Sorts the shown tab; the selected document stays on the row of the pane it was on
    /// where it can (its rows all moved, so the first row in view from before means nothing).
    private func sort(by sort: SortOrder) {
        let visible = visibleRows(of: tab)
        let rowOnScreen = selection(in: visible).map { $0 - current.list.offset }
        current.sort = sort
        if let rowOnScreen, isOrdered(tab), let position = selection(in: visibleRows(of: tab)) {
            current.list.offset = max(0, position - rowOnScreen)
        }
        notice = "Sorted by \(tab.columns[sort.column].title) \(sort.ascending ? "▲ ascending" : "▼ descending")"
    }

    /// Moves the selection `delta` rows, within the list.
    private func move(_ delta: Int) {
        let visible = visibleRows(of: tab)
        guard !visible.isEmpty else { return }
        showsLookup = false
        select(position: max(0, min(visible.count - 1, (selection(in: visible) ?? 0) + delta)), in: visible)
    }

    /// Scrolls the selected document's detail `delta` rows (`settle` stops it at the end).
    private func scrollDetail(by delta: Int) {
        guard let index = selectedIndex else { return }
        let path = tab.snapshot(at: index).reference.path
        let offset = detailScroll?.path == path ? detailScroll!.offset : 0
        detailScroll = (path, max(0, offset + delta))
    }

    // MARK: Mouse

    /// Rows a turn of the wheel scrolls.
    static let wheelStep = 3

    /// A click selects the row or the tab under it; the wheel scrolls the list, or the detail,
    /// the JSON view or the help when it is over them. Only while browsing (and scrolling the
    /// views): a form or a question is answered by keys. `hit` is what the frame on screen
    /// drew at the pointer (`HitMap`).
    private func handle(mouse kind: MouseEvent.Kind, on hit: HitMap.Hit) {
        guard keysWaitingForLoad.isEmpty else { return }
        defer { keepSelectionInView(height: AppView.listHeight(for: size)) }
        let step = kind == .wheelUp ? -Self.wheelStep : Self.wheelStep
        switch (mode, kind, hit) {
        case (.browse, .press, .tab(let index)):
            notice = nil
            switchTab(to: index)
        case (.browse, .press, .header(let column)):
            // A click on a title sorts by it; on the sorted column's, turns it around (htop).
            guard isReady(tab) else { break }
            let current = sortOrder(of: tab)
            sort(by: current.column == column ? current.reversed : SortOrder(column: column))
        case (.browse, .press, .row(let position)):
            notice = nil
            showsLookup = false
            select(position: position, in: visibleRows(of: tab))
        case (.browse, .wheelUp, .row), (.browse, .wheelUp, .list), (.browse, .wheelDown, .row), (.browse, .wheelDown, .list):
            if isReady(tab) { move(step) }
        case (.browse, .wheelUp, .detail), (.browse, .wheelDown, .detail):
            scrollDetail(by: step)
        case (.raw(var view), .wheelUp, _), (.raw(var view), .wheelDown, _):
            view.offset = max(0, view.offset + step)
            mode = .raw(view)
        case (.help(let offset), .wheelUp, _), (.help(let offset), .wheelDown, _):
            mode = .help(offset: max(0, offset + step))
        case (.messages(let offset), .wheelUp, _), (.messages(let offset), .wheelDown, _):
            mode = .messages(offset: max(0, offset + step))
        default: break
        }
    }

    /// The document's create and update times as read for this snapshot of it: nil until they
    /// are read (the frame after shows them), when it has none, or while the server is offline.
    func times(of snapshot: DocumentSnapshot) -> DocumentTimes? {
        shownTimes.flatMap { $0.snapshot === snapshot ? $0.times : nil }
    }

    /// Reads the times of a new snapshot shown, as an effect (a file's stat and attribute, or
    /// one query).
    private func readTimes(of snapshot: DocumentSnapshot) {
        guard showsDocumentTimes, shownTimes?.snapshot !== snapshot, connection?.isOffline != true,
              timesBeingRead !== snapshot else { return }
        timesBeingRead = snapshot
        run(.readTimes(snapshot.reference))
    }

    /// The times read for the snapshot being read, if they are its document's.
    private func timesRead(of reference: DocumentReference, _ times: DocumentTimes?) {
        guard let snapshot = timesBeingRead, snapshot.reference == reference else { return }
        shownTimes = (snapshot, times)
        timesBeingRead = nil
    }

    // MARK: Actions

    /// Does what the action says to the state; returns what the shell should do beyond it.
    @discardableResult
    public func apply(_ action: AppAction) -> Outcome {
        switch action {
        case .key(let key, let pageSize):
            let outcome = handleKey(key, pageSize: pageSize)
            let afterWrites = continueAfterWrites()
            return outcome == .keepRunning ? afterWrites : outcome
        case .mouse(let kind, let hit):
            handle(mouse: kind, on: hit)
        case .frame(let size):
            settle(size: size)
        case .sortSlice:
            return lists.advanceSorting(of: tab) ? .keepRunning : .unchanged
        case .replayWaitingKeys:
            return replayKeysWaitingForLoad()
        case .collectionsListed(let listing):
            return applyCollections(listing) ? .keepRunning : .unchanged
        case .effectFinished(let outcome):
            switch outcome.result {
            case .written(let result): return finished(result)
            case .timesRead(let reference, let times): timesRead(of: reference, times)
            case .collectionsListed(let reference, let listed): openCollections(of: reference, listed: listed)
            }
        case .editorFinished(let file, let result):
            let name = file.deletingPathExtension().path.replacingOccurrences(of: store.directory.path + "/", with: "")
            notice = result.map { "Editor: \($0)" } ?? "Back from the editor: changes to \(name) show as soon as they are read"
        case .suspensionRefused:
            // The process was not stopped, as a process group no shell waits on is never
            // stopped (run as a terminal's or tmux pane's own command).
            notice = "Ctrl-Z does nothing here: no shell's job control could bring Shelf back (run it from a shell to suspend it)"
        }
        return .keepRunning
    }

    /// Starts an effect; its result comes back as an action, then the app draws again
    /// (`afterEffect`).
    func run(_ effect: Effect) {
        effects.run(effect) { [weak self] result in
            guard let self else { return }
            let outcome = apply(.effectFinished(EffectOutcome(result: result)))
            afterEffect?(outcome == .unchanged ? .keepRunning : outcome)
        }
    }

    // MARK: Frames

    /// The screen's size at the last frame: what `s` cycles through the columns of, and what
    /// the mouse keeps the selection in view of.
    private(set) var size = Size(width: 80, height: 16)

    /// One frame: the state takes in what changed since the last (`settle`), then is drawn by
    /// the pure `AppView.render`, which returns the screen and what a click on it means.
    public func frame(size: Size) -> AppView.Screen {
        apply(.frame(size))
        return AppView.render(self, size: size)
    }

    /// Brings the state up to date with the size and with the rows before a frame, so drawing
    /// only reads it: the selection stays in view and follows its document, the scrolled views
    /// stop at their ends, the JSON view, the lookup and the shown document's times follow
    /// new snapshots.
    private func settle(size: Size) {
        self.size = size
        guard !TooSmall.applies(to: size) else { return }
        let layout = ScreenLayout(size: size)
        let bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        keepSelectionInView(height: layout.listRows.height)
        let visible = visibleRows(of: tab)
        let index = selection(in: visible).map { visible[$0] }
        switch mode {
        case .form: break
        case .raw(var view):
            if let index, tab.snapshot(at: index).reference.path == view.path { view.follow(tab.snapshot(at: index), text: documents.text(of:)) }
            view.offset = AppView.rawPane(view, area: layout.detail).widget.offset
            mode = .raw(view)
        case .help(let offset):
            mode = .help(offset: min(offset, AppView.help(self).maxOffset(in: bounds)))
        case .messages(let offset):
            mode = .messages(offset: min(offset, AppView.messageLog(status.history, width: size.width).maxOffset(in: bounds)))
        default: break
        }
        switch mode {
        case .form, .raw: break
        case _ where showsLookup: followLookup()
        default:
            guard let index else { break }
            let snapshot = tab.snapshot(at: index)
            readTimes(of: snapshot)
            detailScroll = (snapshot.reference.path, AppView.detailPane(self, tab: tab, index: index, area: layout.detail).pane.widget.offset)
        }
    }

    private func openInEditor(_ index: Int) -> Outcome {
        if let refusal = documents.editorRefusal { notice = refusal; return .keepRunning }
        return .runEditor(documents.fileURL(of: tab.snapshot(at: index).reference))
    }


    /// The help or the messages: scrolling keys scroll, the others in `bindings` close it.
    private func handleOverlay(_ bindings: [KeyBinding<Keymap.Action>], _ key: Key, offset: Int, pageSize: Int,
                               scrolledTo: (Int) -> Mode) {
        guard let action = bindings.action(for: key) else { return }
        mode = Self.scrolled(offset, by: action, pageSize: pageSize).map(scrolledTo) ?? .browse
    }

    private func handleRaw(_ key: Key, _ view: RawJSONView, pageSize: Int) -> Outcome {
        guard let action = Keymap.raw.action(for: key) else { return .keepRunning }
        if action == .copyJSON { return copySelectedJSON() }
        if let offset = Self.scrolled(view.offset, by: action, pageSize: pageSize) {
            var view = view
            view.offset = offset
            mode = .raw(view)
        } else {
            mode = .browse
        }
        return .keepRunning
    }

    /// A scrolled view's new offset for a scrolling action (`settle` stops it at the end), or nil
    /// for any other action.
    static func scrolled(_ offset: Int, by action: Keymap.Action, pageSize: Int) -> Int? {
        let page = max(1, pageSize - 1)
        switch action {
        case .down: return offset + 1
        case .up: return max(0, offset - 1)
        case .pageDown: return offset + page
        case .pageUp: return max(0, offset - page)
        case .top: return 0
        case .bottom: return 1 << 20
        default: return nil
        }
    }

    /// `Y`: the selected document as stored, for the terminal's clipboard (`clipboardCopy`).
    private func copySelectedJSON() -> Outcome {
        guard let index = selectedIndex else { notice = "Nothing to copy: the list is empty"; return .keepRunning }
        let copy = documents.clipboardCopy(of: tab.snapshot(at: index))
        notice = copy.notice
        return copy.text.map(Outcome.copyToClipboard) ?? .keepRunning
    }

    /// Keys that change documents: refused, and left out of the hint line, in a read-only folder.
    static let writes: Set<Keymap.Action> = [.add, .edit, .openInEditor, .delete, .undo, .redo]

    private static let actsOnDocuments: Set<Keymap.Action> = [.rawView, .copyJSON, .copyPath, .sortNext, .sortReverse, .openInEditor, .up, .down, .pageUp, .pageDown, .top, .bottom, .edit, .delete, .open, .filter]

    func switchTab(to index: Int) {
        if tabSet.show(index) { showsLookup = false }
    }

    private func handleFilter(_ key: Key, _ field: TextField) {
        switch key {
        case .enter:
            let text = field.text
            current.filter = text.isEmpty ? nil : text
            mode = .browse
            let visible = visibleRows(of: tab)
            select(position: visible.isEmpty ? nil : 0, in: visible)
            if visible.isEmpty && !text.isEmpty { notice = "Nothing matches \"\(text)\"" }
        case .escape:
            current.filter = nil
            mode = .browse
        default:
            var field = field
            _ = field.handle(key)
            mode = .filter(field)
        }
    }

    private func handleOpenPrompt(_ key: Key, _ field: TextField, _ completion: IDCompletion?) {
        switch key {
        case .escape: mode = .browse
        case .enter:
            mode = .browse
            open(documentID: field.text.trimmed)
        case .tab, .backTab:
            if var listing = completion, !listing.candidates.isEmpty {
                mode = .openPrompt(TextField(text: listing.cycle(forward: key == .tab)), completion: listing)
            } else {
                let ids = (0..<tab.rowCount).map { tab.snapshot(at: $0).documentID }
                let step = IDCompletion.complete(field.text, among: ids)
                mode = .openPrompt(TextField(text: step.text), completion: step.listing)
            }
        default:
            var field = field
            _ = field.handle(key)
            mode = .openPrompt(field, completion: nil)
        }
    }

    /// The id the `o` lookup fetched, and the books' version then: a change on disk fetches again.
    private var lookupFetched: (id: String, version: Int)?
    /// The guide's fetch under way (an async call of its view model), for a test to await.
    private(set) var lookupFetch: Task<Void, Never>?

    /// Fetches the lookup's document again when the books changed since (the guide's fetch is
    /// one-off; the pane should not show a stale book). Called before a frame (`settle`).
    func followLookup() {
        guard showsLookup, let fetched = lookupFetched, tabs[0].version != fetched.version else { return }
        fetchLookup(fetched.id)
    }

    private func fetchLookup(_ id: String) {
        lookupFetched = (id, tabs[0].version)
        let lookup = books.lookup
        lookupFetch = Task { await lookup.fetchBook(documentId: id) }
    }

    /// `o`: selects the document when it is listed; on the books tab the guide's fetch
    /// (`MappingSimpleTypesViewModel`) also maps it as a `Book` in the detail pane, so
    /// does-not-exist and invalid-data show what the guide shows.
    func open(documentID id: String) {
        guard !id.isEmpty else { return }
        current.filter = nil
        let visible = visibleRows(of: tab)
        let position = tab.index(of: id).flatMap { self.visible(of: tab).position(of: $0) }
        if let position { select(position: position, in: visible) }
        if tab === tabs[0] {
            showsLookup = true
            let lookup = books.lookup
            lookup.book = .empty
            lookup.errorMessage = nil
            fetchLookup(id)
        } else if position == nil {
            notice = "\(tab.collectionID)/\(id) does not exist"
        }
    }

    // MARK: Forms

    func openForm(editing index: Int?) {
        guard !isReadOnly else { notice = "The folder is read-only: nothing can be changed"; return }
        let spec = tab.form(editing: index)
        let fields = spec.fields.map {
            FormField(label: $0.label, text: $0.text, placeholder: $0.rule.hint, choices: $0.rule.choices, keptChoice: $0.rule.keptChoice)
        }
        let original = index.map { tab.snapshot(at: $0) }
        var session = FormSession(spec: spec, widget: FormWidget(fields: fields), initialValues: fields.map(\.text),
                                  tabID: tab.collectionID, documentID: original?.documentID, original: original,
                                  initialCharacters: fields.map(\.field.characters))
        session.validate(all: false)
        mode = .form(session)
    }

    private func handleForm(_ key: Key, _ session: FormSession) {
        var session = session
        switch Keymap.form.action(for: key) {
        case .save?: saveForm(session)
        case .cancel?: if session.isDirty { mode = .confirm(.discardForm(session)) } else { closeForm() }
        case .nextField?: session.widget.focusNext(); mode = .form(session)
        case .previousField?: session.widget.focusPrevious(); mode = .form(session)
        default:
            _ = session.widget.handle(key)
            session.validate(all: false, only: session.widget.focus)
            mode = .form(session)
        }
    }

    /// nil when the document is as it was when the form opened; otherwise whether it is gone.
    func conflict(for session: FormSession, id: String) -> Bool? {
        if session.changedSinceDraft { return false }
        guard let tab = tabs.first(where: { $0.collectionID == session.tabID }) else { return nil }
        guard let index = tab.index(of: id) else { return true }
        return tab.snapshot(at: index) === session.original ? nil : false
    }

    func closeForm() {
        mode = .browse
        showsLookup = false
    }

    // MARK: Drafts

    /// The form as a draft, when one holds typed text (`sessionToKeep`); what SIGTERM and
    /// SIGHUP keep.
    public var formDraft: FormDraft? { sessionToKeep.map(draft(of:)) }

    /// The form of a save that failed or has not finished, as a draft: kept however Shelf
    /// quits, since no question was asked about it.
    public var unsavedDraft: FormDraft? { unsavedSession.map(draft(of:)) }

    private func draft(of session: FormSession) -> FormDraft {
        FormDraft(title: session.spec.title, collectionID: session.tabID, documentID: session.documentID,
                         labels: session.widget.fields.map(\.label), values: session.widget.values,
                         initialValues: session.initialValues, focus: session.widget.focus)
    }

    /// Opens the draft's form on its tab with the text it held.
    private func reopen(_ draft: FormDraft) {
        guard let index = tabs.firstIndex(where: { $0.collectionID == draft.collectionID }) else {
            notice = "The draft's collection '\(draft.collectionID)' is gone; the draft stays in \(draftFile?.url.path ?? "its file")"
            return
        }
        switchTab(to: index)
        guard isReady(tab) else { draftWaitingForLoad = draft; return }
        var documentIndex: Int?
        if let id = draft.documentID {
            documentIndex = tab.index(of: id)
            if documentIndex == nil { notice = "\(draft.collectionID)/\(id) no longer exists: saving adds it as a new document" }
        }
        openForm(editing: documentIndex)
        guard case .form(var session) = mode, session.widget.fields.map(\.label) == draft.labels else {
            notice = "The draft no longer fits the form; it stays in \(draftFile?.url.path ?? "its file")"
            closeForm()
            return
        }
        session.changedSinceDraft = documentIndex != nil && session.initialValues != draft.initialValues
        for (field, value) in draft.values.enumerated() {
            session.widget.fields[field].text = value
            session.widget.fields[field].field.moveToEnd()
        }
        session.widget.focus = min(max(0, draft.focus), session.widget.fields.count - 1)
        session.initialValues = draft.initialValues
        session.initialCharacters = draft.initialValues.map(Array.init)
        session.validate(all: false)
        mode = .form(session)
        draftFile?.remove()
        if notice == nil { notice = "Reopened the draft of \(draft.title)" }
    }

    // MARK: Confirmations

    private func handleConfirm(_ confirmation: Confirmation, _ key: Key) {
        guard let action = Keymap.confirm.action(for: key) else { return }
        switch (confirmation, action) {
        case (.delete(let id), .yes):
            mode = .browse
            delete(id: id)
        case (.delete, _):
            mode = .browse
        case (.discardForm, .yes):
            closeForm()
            notice = "Changes discarded"
        case (.discardForm(let session), _):
            mode = .form(session)
        case (.conflict(let session, _), .yes):
            mode = .form(session)
            saveForm(session, overwrite: true)
        case (.undoConflict(let change, let redo, _), .yes):
            mode = .browse
            revert(change, redo: redo, evenIfChangedSince: true)
        case (.undoConflict(let change, let redo, _), _):
            mode = .browse
            if redo { history.pushRedo(change) } else { history.pushUndo(change) }
            notice = "Not \(redo ? "redone" : "undone"): \(change.path) is as it is on disk; \(redo ? "Ctrl-R" : "u") asks again"
        case (.quit, .yes):
            break  // handled by the caller, which quits
        case (.quit(let before), _):
            mode = before
        case (.reopenDraft(let draft), .yes):
            mode = .browse
            reopen(draft)
        case (.reopenDraft, _):
            mode = .browse
            draftFile?.remove()
            notice = "Draft discarded"
        case (.conflict(let session, let deleted), _):
            if deleted || key == .escape {
                mode = .form(session)
            } else if let id = session.documentID, let index = tab.index(of: id) {
                closeForm()
                openForm(editing: index)
                notice = "Reloaded from disk; your edits were dropped"
            }
        }
    }

    /// The collections whose first snapshot has arrived and been ordered, for the benchmark's
    /// timing log.
    public var loadedCollectionIDs: [String] { tabs.filter { $0.isLoaded && isReady($0) }.map(\.collectionID) }

    // MARK: For the view

    /// The list's keys as they are now: the hint line offers only what can be done; the help
    /// lists every key with why it does nothing now, and pressed, such a key says why.
    var browseBindings: [KeyBinding<Keymap.Action>] {
        guard isReadOnly else { return Keymap.browse }
        return Keymap.browse.disabling { Self.writes.contains($0) ? "The folder is read-only" : nil }
    }

    var bindings: [KeyBinding<Keymap.Action>] {
        switch mode {
        case .browse: return browseBindings
        case .filter: return Keymap.textInput
        case .openPrompt: return Keymap.openPrompt
        case .form: return Keymap.form
        case .help: return Keymap.help
        case .messages: return Keymap.messages
        case .raw: return Keymap.raw
        case .confirm: return Keymap.confirm
        }
    }
}

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
    var tabSet: CollectionTabs
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
    var shownTimes: (snapshot: DocumentSnapshot, times: DocumentTimes?)?
    /// The snapshot whose times are being read.
    var timesBeingRead: DocumentSnapshot?
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
    var draftWaitingForLoad: FormDraft?

    /// Keys that act on a tab's documents, pressed before its first snapshot arrived: they are
    /// replayed once it has, so a script typing "3jj" gets what it typed.
    var keysWaitingForLoad: [(key: Key, pageSize: Int)] = []

    /// The id the `o` lookup fetched, and the books' version then: a change on disk fetches again.
    var lookupFetched: (id: String, version: Int)?
    /// The guide's fetch under way (an async call of its view model), for a test to await.
    var lookupFetch: Task<Void, Never>?

    /// The screen's size at the last frame: what `s` cycles through the columns of, and what
    /// the mouse keeps the selection in view of.
    var size = Size(width: 80, height: 16)

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
    func applyCollections(_ listing: CollectionListing) -> Bool {
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

    func select(position: Int?, in visible: [Int]) {
        detailScroll = nil  // a move, even back to the same document, shows the top
        lists.select(position, of: tab, in: visible)
    }

    var selectedIndex: Int? {
        let visible = visibleRows(of: tab)
        return selection(in: visible).map { visible[$0] }
    }

    /// The selected document, whose collections the once-a-second look lists.
    public var selectedDocument: DocumentReference? { selectedIndex.map { tab.snapshot(at: $0).reference } }

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

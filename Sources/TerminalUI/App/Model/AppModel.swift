import DocumentStore
import Foundation
import ShelfModels
import TerminalKit

// TerminalUI: the Shelf app, as state, actions and effects over a store, drawn with TerminalKit.
// `AppModel` holds the state and takes every action (keys, clicks, frames, finished effects);
// `AppView` draws it as a pure function; effects (writes, reads, listings) run off the main
// thread and come back as actions. It knows no terminal: the `shelf` command's ncurses screen
// hands it keys and draws the canvases it returns.

/// The app: its state (`AppState`, a value), changed only by `apply(_:)` over a closed set of
/// actions (keys, clicks, frames, listings, finished effects), and what it runs on. `apply`
/// routes each action to a focused update over the state (`BrowseUpdate`, `FormUpdate`,
/// `WriteUpdate`, ...), which replies with what it wants done beyond it (`Reply`: a message,
/// effects, an outcome) and this does it. Drawing is `AppView.render`'s, a pure function of
/// this; writes, reads and listings are effects run off the main thread whose results come
/// back as actions; the view models' listeners are what the `frame` action takes in.
@MainActor
public final class AppModel {
    /// Everything the actions change but the status line's messages, the server's state and
    /// the writes in flight (objects that events off the main thread report to as well).
    var state: AppState

    public let store: Firestore
    /// The documents as stored, for `v`, `Y` and the editor.
    let documents: StoredDocuments
    public var colorMode: ColorMode
    let books: BooksViewModel
    let colors: MappingColorsViewModel
    var tabs: [CollectionTab] { state.tabSet.all }
    var activeTab: Int { state.tabSet.active }
    /// The form being typed in, if any (`Mode.form`).
    var form: FormSession? { state.mode.form }
    /// The text being typed in the status line (a filter, an id), if any.
    var textField: TextField? {
        switch state.mode {
        case .filter(let field), .prompt(_, let field, _): field
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
    /// The data folder cannot be written: keys that write say so and leave the hint line.
    /// Settable for tests (as root, every folder is writable).
    var isReadOnly: Bool
    /// The detail ends with the document's create and update times (`shelf` turns it on; off,
    /// rendering tests compare screens that do not change with the time they run at).
    public var showsDocumentTimes = false
    /// Runs the writes off the main thread (`BackgroundEffects`; a test's runner in tests).
    let effects: any EffectRunner
    /// The writes in flight, and what waits for them.
    let writes = PendingWrites()
    /// Called after an effect's result is taken in, between keys: the app draws again, and
    /// quits when a quit waited for the writes.
    public var afterEffect: ((Outcome) -> Void)?

    /// Where a half-typed form is kept on SIGTERM or SIGHUP, and found at the next start.
    public let draftFile: DraftFile?

    public convenience init(store: Firestore, colorMode: ColorMode, notice: String? = nil, draftFile: DraftFile? = nil) {
        self.init(store: store, colorMode: colorMode, notice: notice, draftFile: draftFile, effects: BackgroundEffects())
    }

    init(store: Firestore, colorMode: ColorMode, notice: String? = nil, draftFile: DraftFile? = nil, effects: any EffectRunner) {
        self.effects = effects
        self.draftFile = draftFile
        self.store = store
        documents = StoredDocuments(store: store)
        self.colorMode = colorMode
        isReadOnly = store.isReadOnly
        connection = documents.hasFiles ? nil : ServerConnection(server: store.placeName)
        books = BooksViewModel(db: store)
        colors = MappingColorsViewModel(db: store)
        let languages = CustomizeMappingViewModel(db: store)
        let offices = MappingGeoPointsViewModel(db: store)
        let articles = MappingEnumsViewModel(db: store)
        // Colors listens only while shown, as the sample's screen does; the others keep
        // listening once shown, so coming back to a large collection costs nothing.
        state = AppState(tabSet: CollectionTabs([
            ListTab(whole: books.live, presentation: KnownPresentations.books(books),
                    subscribe: books.subscribe),
            ListTab(whole: colors.live, presentation: KnownPresentations.colors(colors),
                    subscribe: colors.subscribe, unsubscribe: colors.unsubscribe),
            ListTab(whole: languages.live, presentation: KnownPresentations.languages(languages),
                    subscribe: languages.subscribe),
            ListTab(whole: offices.live, presentation: KnownPresentations.offices(offices),
                    subscribe: offices.subscribe),
            ListTab(whole: articles.live, presentation: KnownPresentations.articles(articles),
                    subscribe: articles.subscribe),
        ]))
        // On a server the shown tab's rows wait for its count, which goes first; the listing,
        // which only adds tabs, after the counts.
        var start = Reply(effects: collections.sizing(state.tabSet.all.map(\.collectionID), in: &state))
        start.add(Reply(starting: lookAtCollections()))
        _ = perform(start)
        self.notice = notice
        status.reportWriteErrors(of: store)
        if isReadOnly && self.notice == nil { self.notice = "The folder \(store.placeName) is read-only: browsing only" }
        if !state.tabSet.awaitingSize.contains(tab.collectionID) { tab.show() }
        if let draft = draftFile?.load() { state.mode = .confirm(.reopenDraft(draft)) }
    }

    var tab: CollectionTab { state.tab }

    // MARK: Collections made and removed while running

    /// Adds a tab for each collection folder made since the last look (by another program's
    /// `mkdir`), among the tabs after the known ones in byte order of names, marks the tabs
    /// whose folder is gone (or back), and drops those of collections emptied since shown. One readdir of the data folder (on a server, one query,
    /// which also tells `connection` whether it answers), made here and now: the app's own
    /// looks are effects, at start and on each `tick`; returns whether the tabs changed, so the
    /// caller draws again.
    @discardableResult
    public func refreshCollections() -> Bool {
        apply(.collectionsListed(CollectionListing(of: store, selected: selectedDocument, emptied: emptiedCollections))) != .unchanged
    }

    /// Whether a look at the collections is under way: one at a time, so a server slow to
    /// answer is not asked again and again.
    private var isLookingAtCollections = false

    /// The effect that looks at the collections, unless a look is under way.
    private func lookAtCollections() -> Effect? {
        guard !isLookingAtCollections else { return nil }
        isLookingAtCollections = true
        return .listStoreCollections(store, selected: selectedDocument, emptied: emptiedCollections)
    }

    /// The selected document, whose collections the once-a-second look lists.
    public var selectedDocument: DocumentReference? { state.selectedDocument }

    /// The collections whose tab was dropped when they were emptied: the once-a-second look
    /// tells which of them hold a document again, so their tab comes back.
    public var emptiedCollections: Set<String> { state.tabSet.emptied }

    // MARK: Actions

    /// Does what the action says to the state; returns what the shell should do beyond it.
    @discardableResult
    public func apply(_ action: AppAction) -> Outcome {
        switch action {
        case .key(let key, let pageSize):
            let outcome = handleKey(key, pageSize: pageSize)
            let afterWrites = perform(writing.continueAfterWrites(in: &state))
            return outcome == .keepRunning ? afterWrites : outcome
        case .mouse(let kind, let hit):
            return perform(MouseUpdate.handle(kind, on: hit, in: &state))
        case .frame(let size):
            settle(size: size)
        case .sortSlice:
            return state.lists.advanceSorting(of: tab, filter: state.filterText(for: tab), typing: state.isTypingFilter) ? .keepRunning : .unchanged
        case .replayWaitingKeys:
            return replayKeysWaitingForLoad()
        case .tick:
            _ = perform(Reply(starting: lookAtCollections()))
            return .unchanged
        case .collectionsListed(let listing):
            return perform(collections.listed(listing, in: &state))
        case .effectFinished(let outcome):
            switch outcome.result {
            case .written(let result): return perform(writing.finished(result, in: &state))
            case .timesRead(let snapshot, let times): timesRead(of: snapshot, times)
            case .collectionsListed(let reference, let listed): return perform(collections.opened(collectionsOf: reference, listed, in: &state))
            case .storeCollectionsListed(let listing):
                isLookingAtCollections = false
                return perform(collections.listed(listing, in: &state))
            case .collectionSized(let path, let isLarge): state.tabSet.sized(path, isLarge: isLarge)
            case .lookedUp: break  // the guide's view model holds what it read; the app draws again
            }
        case .editorFinished(let file, let result):
            let name = file.deletingPathExtension().path.replacingOccurrences(of: store.placeName + "/", with: "")
            notice = result.map { "Editor: \($0)" } ?? "Back from the editor: changes to \(name) show as soon as they are read"
        case .suspensionRefused:
            // The process was not stopped, as a process group no shell waits on is never
            // stopped (run as a terminal's or tmux pane's own command).
            notice = "Ctrl-Z does nothing here: no shell's job control could bring Shelf back (run it from a shell to suspend it)"
        }
        return .keepRunning
    }

    /// Does what an update's reply asks beyond the state: the status line's message, the
    /// effects (started once the state and the message are set; the lookup's fetch is one, on
    /// a cleared book); returns its outcome. The one way effects leave the app.
    func perform(_ reply: Reply) -> Outcome {
        if reply.notice != nil || reply.clearsNotice { notice = reply.notice }
        if notice == nil, let fallback = reply.fallbackNotice { notice = fallback }
        var effects = reply.effects
        if let id = reply.lookup {
            books.lookup.book = .empty
            books.lookup.errorMessage = nil
            effects.append(lookUp(id))
        }
        for effect in effects { run(effect) }
        return reply.outcome
    }

    /// Starts an effect; its result comes back as an action, then the app draws again
    /// (`afterEffect`). Only `perform` calls this.
    private func run(_ effect: Effect) {
        effects.run(effect) { [weak self] result in
            guard let self else { return }
            let outcome = apply(.effectFinished(EffectOutcome(result: result)))
            afterEffect?(outcome)
        }
    }

    // MARK: The focused updates, with what each is given (made when needed: `isReadOnly` is
    // settable, and an update holds only what it reads)

    var writing: WriteUpdate { WriteUpdate(store: store, writes: writes, connection: connection) }
    var forms: FormUpdate { FormUpdate(isReadOnly: isReadOnly, idRules: store.idRules, draftFile: draftFile, writing: writing) }
    var browsing: BrowseUpdate { BrowseUpdate(bindings: browseBindings, documents: documents, forms: forms, writing: writing) }
    var collections: CollectionsUpdate { CollectionsUpdate(store: store, connection: connection, writes: writes) }
    var confirming: ConfirmationUpdate { ConfirmationUpdate(forms: forms, writing: writing) }

    /// The collections whose first snapshot has arrived and been ordered, for the benchmark's
    /// timing log.
    public var loadedCollectionIDs: [String] { tabs.filter { $0.isLoaded && state.isReady($0) }.map(\.collectionID) }

    // MARK: For the view

    /// The list's keys as they are now: the hint line offers only what can be done; the help
    /// lists every key with why it does nothing now, and pressed, such a key says why.
    var browseBindings: [KeyBinding<Keymap.Action>] {
        guard isReadOnly else { return Keymap.browse }
        return Keymap.browse.disabling { BrowseUpdate.writes.contains($0) ? "The folder is read-only" : nil }
    }

    var bindings: [KeyBinding<Keymap.Action>] {
        switch state.mode {
        case .browse: return browseBindings
        case .filter: return Keymap.textInput
        case .prompt(let prompt, _, _): return PromptUpdate.bindings(for: prompt)
        case .form: return Keymap.form
        case .help: return Keymap.help
        case .messages: return Keymap.messages
        case .raw: return Keymap.raw
        case .confirm(let confirmation): return confirmation.bindings(in: self)
        }
    }

    // MARK: Quitting

    /// For quitting: waits up to `timeout` for the writes in flight and takes in their results
    /// (a failed save's form then counts for `formDraft`); returns what each write still in
    /// flight was doing ("saving books/dune"), for the app to say as it leaves.
    public func finishWrites(within timeout: DispatchTimeInterval) -> [String] {
        writes.quitWhenDone = false
        let saved = afterEffect
        afterEffect = nil  // the app is already quitting
        defer { afterEffect = saved }
        _ = effects.finish(within: timeout)
        return writes.inFlight.map(\.activity)
    }

    /// The form as a draft, when one holds typed text: the open one, else a save's that failed
    /// or has not finished. What SIGTERM and SIGHUP keep.
    public var formDraft: FormDraft? {
        if let form, form.isDirty { return form.draft }
        return unsavedDraft
    }

    /// The form of a save that failed or has not finished, as a draft: kept however Shelf
    /// quits, since no question was asked about it.
    public var unsavedDraft: FormDraft? { writes.unsavedSession?.draft }
}

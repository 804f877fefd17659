import DocumentStore
import TerminalKit

/// The app's state as a value: what the screen shows and the keys act on, changed only by
/// `AppModel.apply`. Per-mode state is in `mode`'s case, per-tab state in `lists`.
@MainActor
struct AppState {
    var mode: Mode = .browse
    /// The tabs in their order and the one shown.
    var tabSet: CollectionTabs
    /// Every tab's list: its state, rows, selection and sorting.
    var lists = TabLists()
    /// Set by `o` on the books tab: the guide's fetch by id, shown in the detail pane.
    var showsLookup = false
    /// The id the `o` lookup fetched, and the books' version then: a change on disk fetches again.
    var lookupFetched: (id: String, version: Int)?
    /// Rows of the detail scrolled off its top, for the document at `path`; another document
    /// starts at the top.
    var detailScroll: (path: String, offset: Int)?
    /// The collections of a document, as last listed: its detail names them when it is the
    /// selected one.
    var documentCollections: (path: String, ids: [String])?
    /// When the collection listing last taken in began (`CollectionListing.began`).
    var lastListingBegan: ContinuousClock.Instant?
    /// The times of the document last shown, read once per snapshot of it.
    var shownTimes: (snapshot: DocumentSnapshot, times: DocumentTimes?)?
    /// The snapshot whose times are being read.
    var timesBeingRead: DocumentSnapshot?
    /// What `u` puts back and `Ctrl-R` does again.
    var history = UndoHistory()
    /// The screen's size at the last frame: what `s` cycles through the columns of, and what
    /// the mouse keeps the selection in view of.
    var size = Size(width: 80, height: 16)
    /// Keys that act on a tab's documents, pressed before its first snapshot arrived: they are
    /// replayed once it has, so a script typing "3jj" gets what it typed.
    var keysWaitingForLoad: [(key: Key, pageSize: Int)] = []
    /// A draft to reopen once its tab has loaded.
    var draftWaitingForLoad: FormDraft?

    /// Back to the list from a form (saved, cancelled or dropped). A failed save's error is
    /// about the form's text, so it goes with the form: the documents shown or opened next
    /// would show a stale error (a save started now says how it went itself).
    mutating func closeForm() {
        if let tabID = mode.form?.tabID { tabSet.all.first { $0.collectionID == tabID }?.forgetWriteError() }
        mode = .browse
        showsLookup = false
    }
}

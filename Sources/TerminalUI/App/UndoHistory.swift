/// `u` and `Ctrl-R`: what Shelf's own changes replaced (newest last), and what undoing
/// replaced in turn, to redo it. A new change forgets what could be redone, as in vim and
/// visidata.
struct UndoHistory {
    /// A document's state: its fields, or nil when it does not exist.
    struct State {
        let path: String
        let fields: [String: Any]?
    }

    /// One step: the state to write, and the state that writing replaces when it is known
    /// (a delete replaces a document with nothing); otherwise it is read from the list.
    struct Entry {
        let write: State
        var replaces: State?
    }

    /// Entries kept each way; the oldest go first.
    static let limit = 100

    private var undoEntries: [Entry] = []
    private var redoEntries: [Entry] = []

    /// A change Shelf made: `before` is what undoing it writes back, nil when that cannot be
    /// known (a file that could not be read), which makes the change not undoable; `after` is
    /// what the change left, when known.
    mutating func recordChange(before: State?, after: State? = nil) {
        if let before { Self.push(Entry(write: before, replaces: after), onto: &undoEntries) }
        redoEntries = []
    }

    mutating func popUndo() -> Entry? { undoEntries.popLast() }
    mutating func popRedo() -> Entry? { redoEntries.popLast() }
    mutating func pushUndo(_ entry: Entry) { Self.push(entry, onto: &undoEntries) }
    mutating func pushRedo(_ entry: Entry) { Self.push(entry, onto: &redoEntries) }

    private static func push(_ entry: Entry, onto entries: inout [Entry]) {
        entries.append(entry)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }
}

import DocumentStore
import TerminalKit

/// The list's keys (`Keymap.browse`): moves, tabs, the prompts, forms and writes, the views and
/// copies of the selected document. Keys that act on a tab's documents wait for its rows; a
/// key that does nothing here says why.
@MainActor
struct BrowseUpdate {
    /// The list's keys as they are now (some disabled in a read-only folder).
    let bindings: [KeyBinding<Keymap.Action>]
    let documents: StoredDocuments
    let forms: FormUpdate
    let writing: WriteUpdate

    /// Keys that change documents: refused, and left out of the hint line, in a read-only folder.
    static let writes: Set<Keymap.Action> = [.add, .edit, .openInEditor, .delete, .undo, .redo]

    static let actsOnDocuments: Set<Keymap.Action> = [.rawView, .copyJSON, .copyPath, .copyID, .copyValue, .sortNext, .sortReverse, .openInEditor, .up, .down, .pageUp, .pageDown, .top, .bottom, .edit, .delete, .open, .filter, .nextMatch, .previousMatch]

    func handle(_ key: Key, pageSize: Int, in state: inout AppState) -> Reply {
        let tab = state.tab
        if let action = Keymap.browse.action(for: key), !state.isReady(tab) && Self.actsOnDocuments.contains(action) {
            state.keysWaitingForLoad.append((key, pageSize))
            return Reply()
        }
        guard let binding = bindings.binding(for: key) else {
            guard case .character(let c) = key else { return Reply() }
            return Reply(notice: "\"\(c)\" does nothing here: press ? for the keys")
        }
        if let reason = binding.disabledReason { return Reply(notice: "\(reason): \(key.label) does nothing") }
        let action = binding.action
        let tabs = state.tabSet.all
        let visible = state.visibleRows(of: tab)
        switch action {
        case .up: state.move(-1)
        case .down: state.move(1)
        case .pageUp: state.move(-max(1, pageSize - 1))
        case .pageDown: state.move(max(1, pageSize - 1))
        case .top: state.move(-max(1, visible.count))
        case .bottom: state.move(max(1, visible.count))
        case .nextTab: state.switchTab(to: (state.tabSet.active + 1) % tabs.count)
        case .previousTab: state.switchTab(to: (state.tabSet.active + tabs.count - 1) % tabs.count)
        case .tabNumber:
            guard case .character(let c) = key, let number = c.wholeNumberValue else { break }
            guard number <= tabs.count else { return Reply(notice: "There is no tab \(number): \(tabs.count) tabs") }
            state.switchTab(to: number - 1)
        case .filter:
            state.mode = .filter(TextField(text: state.current.filter ?? ""))
        case .clearFilter:
            state.showsLookup = false
            if let filter = state.current.filter {
                state.current.filter = nil
                state.current.search = filter
                return Reply(notice: "Filter cleared: n and N go to its matches")
            }
            state.current.search = nil
        case .nextMatch, .previousMatch:
            return state.goToMatch(forward: action == .nextMatch)
        case .open:
            state.mode = .prompt(.open, TextField(), completion: nil)
        case .goTo:
            state.mode = .prompt(.goTo, TextField(), completion: nil)
        case .add: return forms.open(editing: nil, in: &state)
        case .edit:
            guard let index = state.selectedIndex, let snapshot = tab.snapshot(at: index) else { return state.nothingSelected(to: "edit") }
            // A file that cannot be read has no fields for a form: it is edited in the editor,
            // whole, so nothing is lost.
            if snapshot.readError != nil { return openInEditor(snapshot.reference) }
            // The form would show the document as it was before that write.
            let reference = snapshot.reference
            if writing.writes.isWriting(reference) { return Reply(notice: "\(reference.path) is being written: e edits it once that is done") }
            return forms.open(editing: index, in: &state)
        case .openInEditor:
            guard let reference = state.selectedDocument else { return state.nothingSelected(to: "open") }
            return openInEditor(reference)
        case .delete:
            guard let snapshot = state.selectedSnapshot else { return state.nothingSelected(to: "delete") }
            state.mode = .confirm(.delete(id: snapshot.documentID))
        case .undo: return writing.undoOrRedo(redo: false, in: &state)
        case .redo: return writing.undoOrRedo(redo: true, in: &state)
        case .collections:
            // Listing them is an effect: on a server, a call the keys do not wait for.
            guard let reference = state.selectedDocument else { return state.nothingSelected(to: "list the collections of") }
            return Reply(effects: [.listCollections(reference)])
        case .rawView:
            guard let snapshot = state.selectedSnapshot else { return state.nothingSelected(to: "show") }
            state.mode = .raw(RawJSONView(snapshot: snapshot, text: documents.text(of:)))
        case .copyJSON: return documents.copySelected(in: &state)
        case .copyPath:
            guard let reference = state.selectedDocument else { return state.nothingSelected(to: "copy") }
            return Reply(notice: "Copied \(reference.path) to the clipboard", outcome: .copyToClipboard(reference.path))
        case .copyID:
            guard let reference = state.selectedDocument else { return state.nothingSelected(to: "copy") }
            return Reply(notice: "Copied the id \(reference.documentID) to the clipboard", outcome: .copyToClipboard(reference.documentID))
        case .copyValue:
            guard let index = state.selectedIndex, tab.snapshot(at: index) != nil else { return state.nothingSelected(to: "copy") }
            let column = state.arrangement(of: tab).cursorColumn ?? 0
            guard case .cells(let cells) = tab.tableRow(at: index, mode: .none), cells.indices.contains(column) else {
                return Reply(notice: "Nothing to copy: the document does not decode (Y copies its JSON)")
            }
            let value = cells[column].text.trimmingCharacters(in: .whitespaces)  // a swatch's cell leads with a space
            return Reply(notice: "Copied its \(tab.columns[column].title): \(value.shownInMessage)", outcome: .copyToClipboard(value))
        case .sortNext, .sortReverse:
            let order = state.sortOrder(of: tab)
            // Only the columns on screen: a sort by one out of sight would look like none.
            let (indices, layout) = state.columnsInView(of: tab)
            return Reply(notice: state.sort(by: action == .sortNext ? order.next(among: Array(indices.prefix(layout.shownCount))) : order.reversed))
        case .columnLeft, .columnRight, .moveColumnLeft, .moveColumnRight, .hideColumn, .showColumns, .widenColumn:
            return state.arrangeColumns(action)
        case .help: state.mode = .help(offset: 0)
        case .messages: state.mode = .messages(offset: 0)
        case .scrollDetailDown: state.scrollDetail(by: 1)
        case .scrollDetailUp: state.scrollDetail(by: -1)
        case .quit: return Reply(outcome: writing.quitAfterWrites())
        default: break
        }
        return Reply()
    }

    /// `E`: the document's file in the editor, when the documents are files.
    func openInEditor(_ reference: DocumentReference) -> Reply {
        switch documents.editorFile(of: reference) {
        case .success(let file): Reply(outcome: .runEditor(file))
        case .failure(let refusal): Reply(notice: refusal.reason)
        }
    }
}

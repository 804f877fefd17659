import DocumentStore
import Foundation

/// What each key does, per mode: the list's keys, the prompts' (`/`, `o`), the scrolled views'
/// (help, messages, the JSON view). Keys that act on a tab's documents wait for its rows.
extension AppModel {
    func handleKey(_ key: Key, pageSize: Int) -> Outcome {
        if Keymap.global.action(for: key) == .suspend { return .suspend }
        if Keymap.global.action(for: key) == .quit {
            // Nothing typed is lost unasked: Ctrl-C in a changed form asks as Esc does;
            // a second Ctrl-C answers yes. No write is lost unsaid: quitting waits for them.
            if case .confirm(.quit) = state.mode { return .quit }
            guard form?.isDirty == true else { return quitAfterWrites() }
            state.mode = .confirm(.quit(before: state.mode))
            return .keepRunning
        }
        notice = nil  // a message lasts until the next key
        // Once one key waits for the tab to load, every key after it waits too, bound or
        // not, so "/river 7" replays as typed instead of losing its unbound letters.
        if !state.keysWaitingForLoad.isEmpty, key != .resize {
            state.keysWaitingForLoad.append((key, pageSize))
            return .keepRunning
        }
        defer { state.keepSelectionInView(height: pageSize) }
        switch state.mode {
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



    /// Replays the keys that waited for the shown tab to load (`AppAction.replayWaitingKeys`).
    func replayKeysWaitingForLoad() -> Outcome {
        if let draft = state.draftWaitingForLoad, tab.isLoaded, state.isReady(tab) {
            state.draftWaitingForLoad = nil
            reopen(draft)
        }
        guard state.isReady(tab), !state.keysWaitingForLoad.isEmpty else { return .keepRunning }
        let waiting = state.keysWaitingForLoad
        state.keysWaitingForLoad = []
        for (index, (key, pageSize)) in waiting.enumerated() {
            let outcome = apply(.key(key, pageSize: pageSize))
            if outcome != .keepRunning {
                // Keys after one that leaves the screen wait for the screen to come back.
                state.keysWaitingForLoad = Array(waiting[(index + 1)...])
                return outcome
            }
        }
        return .keepRunning
    }

    func handleBrowse(_ key: Key, pageSize: Int) -> Outcome {
        if let action = Keymap.browse.action(for: key), !state.isReady(tab) && Self.actsOnDocuments.contains(action) {
            state.keysWaitingForLoad.append((key, pageSize))
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
        let visible = state.visibleRows(of: tab)
        switch action {
        case .up: state.move(-1)
        case .down: state.move(1)
        case .pageUp: state.move(-max(1, pageSize - 1))
        case .pageDown: state.move(max(1, pageSize - 1))
        case .top: state.move(-max(1, visible.count))
        case .bottom: state.move(max(1, visible.count))
        case .nextTab: state.switchTab(to: (activeTab + 1) % tabs.count)
        case .previousTab: state.switchTab(to: (activeTab + tabs.count - 1) % tabs.count)
        case .tabNumber:
            if case .character(let c) = key, let number = c.wholeNumberValue {
                if number <= tabs.count { state.switchTab(to: number - 1) } else { notice = "There is no tab \(number): \(tabs.count) tabs" }
            }
        case .filter:
            state.mode = .filter(TextField(text: state.current.filter ?? ""))
        case .clearFilter:
            if state.current.filter != nil { state.current.filter = nil; notice = "Filter cleared" }
            state.showsLookup = false
        case .open:
            state.mode = .openPrompt(TextField(), completion: nil)
        case .add: openForm(editing: nil)
        case .edit:
            guard let index = state.selectedIndex else { notice = "Nothing to edit: the list is empty"; break }
            // A file that cannot be read has no fields for a form: it is edited in the editor,
            // whole, so nothing is lost.
            if tab.snapshot(at: index).readError != nil { return openInEditor(index) }
            // The form would show the document as it was before that write.
            let reference = tab.snapshot(at: index).reference
            if writes.isWriting(reference) { notice = "\(reference.path) is being written: e edits it once that is done"; break }
            openForm(editing: index)
        case .openInEditor:
            guard let index = state.selectedIndex else { notice = "Nothing to open: the list is empty"; break }
            return openInEditor(index)
        case .delete:
            if let index = state.selectedIndex {
                state.mode = .confirm(.delete(id: tab.snapshot(at: index).documentID))
            } else {
                notice = "Nothing to delete: the list is empty"
            }
        case .undo: undoOrRedo(redo: false)
        case .redo: undoOrRedo(redo: true)
        case .collections: openCollections()
        case .rawView:
            guard let index = state.selectedIndex else { notice = "Nothing to show: the list is empty"; break }
            state.mode = .raw(RawJSONView(snapshot: tab.snapshot(at: index), text: documents.text(of:)))
        case .copyJSON: return copySelectedJSON()
        case .copyPath:
            guard let reference = selectedDocument else { notice = "Nothing to copy: the list is empty"; break }
            notice = "Copied \(reference.path) to the clipboard"
            return .copyToClipboard(reference.path)
        case .sortNext, .sortReverse:
            let order = state.sortOrder(of: tab)
            // Only the columns on screen: a sort by one out of sight would look like none.
            let shown = TableLayout(columns: tab.columns, width: max(1, ScreenLayout(size: state.size).header.width)).shownCount
            notice = state.sort(by: action == .sortNext ? order.next(columnCount: shown) : order.reversed)
        case .help: state.mode = .help(offset: 0)
        case .messages: state.mode = .messages(offset: 0)
        case .scrollDetailDown: state.scrollDetail(by: 1)
        case .scrollDetailUp: state.scrollDetail(by: -1)
        case .quit: return quitAfterWrites()
        default: break
        }
        return .keepRunning
    }

    /// `c`: each collection of the selected document becomes a tab (once), after the others
    /// so the numbers of those stay, and the first of them is shown.
    /// Listing them is an effect: on a server, a call the keys do not wait for.
    func openCollections() {
        guard let reference = selectedDocument else { notice = "Nothing selected: the list is empty"; return }
        run(.listCollections(reference))
    }

    func openCollections(of reference: DocumentReference, listed: Result<[String], any Error>) {
        let ids: [String]
        switch listed {
        case .success(let listed): ids = listed.sorted(by: CollectionTabs.precedes)
        case .failure(let error):
            notice = "Cannot list the collections of \(reference.path): \(error)"
            return
        }
        state.documentCollections = (reference.path, ids)
        let paths = ids.map { "\(reference.path)/\($0)" }
        guard let first = paths.first else { notice = "\(reference.path) has no collections"; return }
        state.tabSet.add(paths, store: store)
        state.switchTab(to: tabs.firstIndex { $0.collectionID == first } ?? activeTab)
        notice = ids.count == 1 ? "Opened \(first)"
            : "Opened the \(ids.count) collections of \(reference.path): \(ids.joined(separator: ", "))"
    }

    func openInEditor(_ index: Int) -> Outcome {
        if let refusal = documents.editorRefusal { notice = refusal; return .keepRunning }
        return .runEditor(documents.fileURL(of: tab.snapshot(at: index).reference))
    }


    /// The help or the messages: scrolling keys scroll, the others in `bindings` close it.
    func handleOverlay(_ bindings: [KeyBinding<Keymap.Action>], _ key: Key, offset: Int, pageSize: Int,
                               scrolledTo: (Int) -> Mode) {
        guard let action = bindings.action(for: key) else { return }
        state.mode = Self.scrolled(offset, by: action, pageSize: pageSize).map(scrolledTo) ?? .browse
    }

    func handleRaw(_ key: Key, _ view: RawJSONView, pageSize: Int) -> Outcome {
        guard let action = Keymap.raw.action(for: key) else { return .keepRunning }
        if action == .copyJSON { return copySelectedJSON() }
        if let offset = Self.scrolled(view.offset, by: action, pageSize: pageSize) {
            var view = view
            view.offset = offset
            state.mode = .raw(view)
        } else {
            state.mode = .browse
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
    func copySelectedJSON() -> Outcome {
        guard let index = state.selectedIndex else { notice = "Nothing to copy: the list is empty"; return .keepRunning }
        let copy = documents.clipboardCopy(of: tab.snapshot(at: index))
        notice = copy.notice
        return copy.text.map(Outcome.copyToClipboard) ?? .keepRunning
    }

    /// Keys that change documents: refused, and left out of the hint line, in a read-only folder.
    static let writes: Set<Keymap.Action> = [.add, .edit, .openInEditor, .delete, .undo, .redo]

    static let actsOnDocuments: Set<Keymap.Action> = [.rawView, .copyJSON, .copyPath, .sortNext, .sortReverse, .openInEditor, .up, .down, .pageUp, .pageDown, .top, .bottom, .edit, .delete, .open, .filter]


    func handleFilter(_ key: Key, _ field: TextField) {
        switch key {
        case .enter:
            let text = field.text
            state.current.filter = text.isEmpty ? nil : text
            state.mode = .browse
            let visible = state.visibleRows(of: tab)
            state.select(position: visible.isEmpty ? nil : 0, in: visible)
            if visible.isEmpty && !text.isEmpty { notice = "Nothing matches \"\(text)\"" }
        case .escape:
            state.current.filter = nil
            state.mode = .browse
        default:
            var field = field
            _ = field.handle(key)
            state.mode = .filter(field)
        }
    }

    func handleOpenPrompt(_ key: Key, _ field: TextField, _ completion: IDCompletion?) {
        switch key {
        case .escape: state.mode = .browse
        case .enter:
            state.mode = .browse
            open(documentID: field.text.trimmed)
        case .tab, .backTab:
            if var listing = completion, !listing.candidates.isEmpty {
                state.mode = .openPrompt(TextField(text: listing.cycle(forward: key == .tab)), completion: listing)
            } else {
                let ids = (0..<tab.rowCount).map { tab.snapshot(at: $0).documentID }
                let step = IDCompletion.complete(field.text, among: ids)
                state.mode = .openPrompt(TextField(text: step.text), completion: step.listing)
            }
        default:
            var field = field
            _ = field.handle(key)
            state.mode = .openPrompt(field, completion: nil)
        }
    }


    /// Fetches the lookup's document again when the books changed since (the guide's fetch is
    /// one-off; the pane should not show a stale book). Called before a frame (`settle`).
    func followLookup() {
        guard state.showsLookup, let fetched = state.lookupFetched, tabs[0].version != fetched.version else { return }
        fetchLookup(fetched.id)
    }

    func fetchLookup(_ id: String) {
        state.lookupFetched = (id, tabs[0].version)
        let lookup = books.lookup
        lookupFetch = Task { await lookup.fetchBook(documentId: id) }
    }

    /// `o`: selects the document when it is listed; on the books tab the guide's fetch
    /// (`MappingSimpleTypesViewModel`) also maps it as a `Book` in the detail pane, so
    /// does-not-exist and invalid-data show what the guide shows.
    func open(documentID id: String) {
        guard !id.isEmpty else { return }
        state.current.filter = nil
        let visible = state.visibleRows(of: tab)
        let position = tab.index(of: id).flatMap { state.visible(of: tab).position(of: $0) }
        if let position { state.select(position: position, in: visible) }
        if tab === tabs[0] {
            state.showsLookup = true
            let lookup = books.lookup
            lookup.book = .empty
            lookup.errorMessage = nil
            fetchLookup(id)
        } else if position == nil {
            notice = "\(tab.collectionID)/\(id) does not exist"
        }
    }
}

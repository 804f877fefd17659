/// The text typed in the status line: the filter (`/`) and the id to open (`o`, Tab completing
/// it from the shown tab's ids).
@MainActor
enum PromptUpdate {
    static func filter(_ key: Key, _ field: TextField, in state: inout AppState) -> Reply {
        switch key {
        case .enter:
            let text = field.text
            state.current.filter = text.isEmpty ? nil : text
            state.mode = .browse
            let visible = state.visibleRows(of: state.tab)
            state.select(position: visible.isEmpty ? nil : 0, in: visible)
            if visible.isEmpty && !text.isEmpty { return Reply(notice: "Nothing matches \"\(text)\"") }
        case .escape:
            state.current.filter = nil
            state.mode = .browse
        default:
            var field = field
            _ = field.handle(key)
            state.mode = .filter(field)
        }
        return Reply()
    }

    static func openPrompt(_ key: Key, _ field: TextField, _ completion: IDCompletion?, in state: inout AppState) -> Reply {
        switch key {
        case .escape: state.mode = .browse
        case .enter:
            state.mode = .browse
            return open(documentID: field.text.trimmed, in: &state)
        case .tab, .backTab:
            if var listing = completion, !listing.candidates.isEmpty {
                state.mode = .openPrompt(TextField(text: listing.cycle(forward: key == .tab)), completion: listing)
            } else {
                let tab = state.tab
                let ids = (0..<tab.rowCount).map { tab.snapshot(at: $0).documentID }
                let step = IDCompletion.complete(field.text, among: ids)
                state.mode = .openPrompt(TextField(text: step.text), completion: step.listing)
            }
        default:
            var field = field
            _ = field.handle(key)
            state.mode = .openPrompt(field, completion: nil)
        }
        return Reply()
    }

    /// `o`: selects the document when it is listed; on the books tab the guide's fetch
    /// (`MappingSimpleTypesViewModel`) also maps it as a `Book` in the detail pane, so
    /// does-not-exist and invalid-data show what the guide shows.
    static func open(documentID id: String, in state: inout AppState) -> Reply {
        guard !id.isEmpty else { return Reply() }
        state.current.filter = nil
        let tab = state.tab
        let visible = state.visibleRows(of: tab)
        let position = tab.index(of: id).flatMap { state.visible(of: tab).position(of: $0) }
        if let position { state.select(position: position, in: visible) }
        var reply = Reply()
        if tab === state.tabSet.all[0] {
            state.showsLookup = true
            reply.lookup = id
        } else if position == nil {
            reply.notice = "\(tab.collectionID)/\(id) does not exist"
        }
        return reply
    }
}

import TerminalKit

/// The scrolled views' keys: the help, the messages (`m`) and the document's JSON (`v`).
/// Scrolling keys scroll (`AppModel.settle` stops them at the end); the others close the view.
@MainActor
enum ViewerUpdate {
    /// The help or the messages: scrolling keys scroll, the others in `bindings` close it.
    static func overlay(_ bindings: [KeyBinding<Keymap.Action>], _ key: Key, offset: Int, pageSize: Int,
                        in state: inout AppState, scrolledTo: (Int) -> Mode) {
        guard let action = bindings.action(for: key) else { return }
        state.mode = scrolled(offset, by: action, pageSize: pageSize).map(scrolledTo) ?? .browse
    }

    /// The JSON view: also copies it (`Y`).
    static func raw(_ key: Key, _ view: RawJSONView, pageSize: Int, documents: StoredDocuments, in state: inout AppState) -> Reply {
        guard let action = Keymap.raw.action(for: key) else { return Reply() }
        if action == .copyJSON { return documents.copySelected(in: &state) }
        if let offset = scrolled(view.offset, by: action, pageSize: pageSize) {
            var view = view
            view.offset = offset
            state.mode = .raw(view)
        } else {
            state.mode = .browse
        }
        return Reply()
    }

    /// A scrolled view's new offset for a scrolling action, or nil for any other action.
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
}

import TerminalKit

/// The text typed in the status line: the filter (`/`), the id to open (`o`, Tab completing it
/// from the shown tab's ids), and the row or tab to go to (`:`, Tab completing tabs' names).
@MainActor
enum PromptUpdate {
    /// A key typed in the filter: `Keymap.textInput`'s keys keep or clear it, any other
    /// edits the text.
    static func filter(_ key: Key, _ field: TextField, in state: inout AppState) -> Reply {
        switch Keymap.textInput.action(for: key) {
        case .save:
            let text = field.text
            state.current.filter = text.isEmpty ? nil : text
            state.current.search = nil
            state.mode = .browse
            let visible = state.visibleRows(of: state.tab)
            state.select(position: visible.isEmpty ? nil : 0, in: visible)
            if let problem = state.tab.problem(with: ListFilter(text)) { return Reply(notice: ListFilter.refusal(of: text, problem)) }
            if visible.isEmpty && !text.isEmpty && state.tab.isLoaded { return Reply(notice: "Nothing matches \"\(text)\"") }
        case .cancel:
            state.current.filter = nil
            state.mode = .browse
        default:
            var field = field
            _ = field.handle(key)
            state.mode = .filter(field)
        }
        return Reply()
    }

    /// A key typed in `o`'s or `:`'s line: its table's keys (`bindings(for:)`) open, complete
    /// or cancel, any other edits the text.
    static func prompt(_ prompt: Mode.Prompt, _ key: Key, _ field: TextField, _ completion: IDCompletion?, in state: inout AppState) -> Reply {
        let action = bindings(for: prompt).action(for: key)
        switch action {
        case .cancel: state.mode = .browse
        case .save:
            state.mode = .browse
            switch prompt {
            case .open: return open(documentID: field.text.trimmed, in: &state)
            case .goTo: return goTo(field.text.trimmed, in: &state)
            }
        case .nextField, .previousField:
            if var listing = completion, !listing.candidates.isEmpty {
                state.mode = .prompt(prompt, TextField(text: listing.cycle(forward: action == .nextField)), completion: listing)
            } else {
                let step = IDCompletion.complete(field.text, among: names(for: prompt, in: state))
                state.mode = .prompt(prompt, TextField(text: step.text), completion: step.listing)
            }
        default:
            var field = field
            _ = field.handle(key)
            state.mode = .prompt(prompt, field, completion: nil)
        }
        return Reply()
    }

    /// The prompt's keys, for its handling, its hint line and the help alike.
    static func bindings(for prompt: Mode.Prompt) -> [KeyBinding<Keymap.Action>] {
        switch prompt {
        case .open: Keymap.openPrompt
        case .goTo: Keymap.goToPrompt
        }
    }

    /// What Tab completes: the shown tab's ids, or the tabs' names.
    private static func names(for prompt: Mode.Prompt, in state: AppState) -> [String] {
        switch prompt {
        case .open:
            return state.tab.documentIDs
        case .goTo:
            return state.tabSet.all.map(\.collectionID)
        }
    }

    /// `:`: a number goes to that row of the list as it is shown (1 is the first; past the
    /// end, the last); a name goes to the tab of that collection: the name whole, else the
    /// collection's id whole (`reviews` for books/dune/reviews), else the one tab whose name or
    /// id starts so (case ignored).
    static func goTo(_ text: String, in state: inout AppState) -> Reply {
        guard !text.isEmpty else { return Reply() }
        if text.allSatisfy(\.isASCIIDigit) {
            let visible = state.visibleRows(of: state.tab)
            guard !visible.isEmpty else { return Reply(notice: "No row to go to: the list is empty") }
            let number = Int(text) ?? .max
            state.select(position: min(max(number, 1), visible.count) - 1, in: visible)
            return number > visible.count ? Reply(notice: "There is no row \(text): went to the last, row \(visible.count.thousandsSeparated)") : Reply()
        }
        let names = state.tabSet.all.map(\.collectionID)
        let folded = text.lowercased()
        // A document's collection (books/dune/reviews) answers to its own id too.
        let ids = names.map { String($0.split(separator: "/").last ?? "").lowercased() }
        let found = names.firstIndex(of: text).map { [$0] }
            ?? names.indices.filter { names[$0].lowercased() == folded }.nonEmpty
            ?? names.indices.filter { ids[$0] == folded }.nonEmpty
            ?? names.indices.filter { names[$0].lowercased().hasPrefix(folded) || ids[$0].hasPrefix(folded) }
        switch found.count {
        case 1:
            state.switchTab(to: found[0])
            return Reply()
        case 0:
            return Reply(notice: "No tab is named \"\(text.shownInMessage)\" (a number goes to a row)")
        default:
            let shown = found.prefix(5).map { names[$0] }.joined(separator: ", ")
            return Reply(notice: "\(found.count.thousandsSeparated) tabs start with \"\(text.shownInMessage)\": \(shown)\(found.count > 5 ? ", …" : "")")
        }
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

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

private extension Array {
    /// nil when empty, so `??` tries the next way of finding.
    var nonEmpty: Self? { isEmpty ? nil : self }
}

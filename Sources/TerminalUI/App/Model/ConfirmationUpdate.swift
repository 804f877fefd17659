import TerminalKit

/// The answers to the questions asked before anything is lost (`Confirmation`): y does what
/// was asked, through the forms' and the writes' updates; n or Esc goes back.
@MainActor
struct ConfirmationUpdate {
    let forms: FormUpdate
    let writing: WriteUpdate

    /// The answer to `confirmation`: the action its keys (`Confirmation.bindings`) give the key
    /// pressed, nil for a key that is no answer. Quitting's yes is the caller's: it quits.
    func answer(_ confirmation: Confirmation, with answer: Keymap.Action?, in state: inout AppState) -> Reply {
        guard let action = answer else { return Reply() }
        switch (confirmation, action) {
        case (.delete(let id), .yes):
            state.mode = .browse
            return writing.delete(id: id, in: state)
        case (.delete, _):
            state.mode = .browse
        case (.discardForm, .yes):
            state.closeForm()
            return Reply(notice: "Changes discarded")
        case (.discardForm(let session), _):
            state.mode = .form(session)
        case (.conflict(let session, _), .yes):
            state.mode = .form(session)
            return forms.save(session, overwrite: true, in: &state)
        case (.undoConflict(let change, let redo, _), .yes):
            state.mode = .browse
            return writing.revert(change, redo: redo, evenIfChangedSince: true)
        case (.undoConflict(let change, let redo, _), _):
            state.mode = .browse
            if redo { state.history.pushRedo(change) } else { state.history.pushUndo(change) }
            return Reply(notice: "Not \(redo ? "redone" : "undone"): \(change.path) is as it is on disk; \(redo ? "Ctrl-R" : "u") asks again")
        case (.quit, .yes):
            break
        case (.quit(let before), _):
            state.mode = before
        case (.reopenDraft(let draft), .yes):
            state.mode = .browse
            return forms.reopen(draft, in: &state)
        case (.reopenDraft, _):
            state.mode = .browse
            forms.draftFile?.remove()
            return Reply(notice: "Draft discarded")
        case (.conflict(let session, let deleted), _):
            if deleted || action == .cancel {
                state.mode = .form(session)
            } else if let id = session.documentID, let index = state.tab.index(of: id) {
                state.closeForm()
                var reply = forms.open(editing: index, in: &state)
                reply.notice = "Reloaded from disk; your edits were dropped"
                return reply
            }
        }
        return Reply()
    }
}

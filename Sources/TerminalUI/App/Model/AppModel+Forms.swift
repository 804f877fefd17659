import DocumentStore
import Foundation

/// Forms (`a`, `e`), the drafts kept of them, and the questions asked before anything is lost.
extension AppModel {
    func openForm(editing index: Int?) {
        guard !isReadOnly else { notice = "The folder is read-only: nothing can be changed"; return }
        let spec = tab.form(editing: index)
        let fields = spec.fields.map {
            FormField(label: $0.label, text: $0.text, placeholder: $0.rule.hint, choices: $0.rule.choices, keptChoice: $0.rule.keptChoice)
        }
        let original = index.map { tab.snapshot(at: $0) }
        var session = FormSession(spec: spec, widget: FormWidget(fields: fields), initialValues: fields.map(\.text),
                                  tabID: tab.collectionID, documentID: original?.documentID, original: original,
                                  initialCharacters: fields.map(\.field.characters))
        session.validate(all: false)
        state.mode = .form(session)
    }

    func handleForm(_ key: Key, _ session: FormSession) {
        var session = session
        switch Keymap.form.action(for: key) {
        case .save?: saveForm(session)
        case .cancel?: if session.isDirty { state.mode = .confirm(.discardForm(session)) } else { closeForm() }
        case .nextField?: session.widget.focusNext(); state.mode = .form(session)
        case .previousField?: session.widget.focusPrevious(); state.mode = .form(session)
        default:
            _ = session.widget.handle(key)
            session.validate(all: false, only: session.widget.focus)
            state.mode = .form(session)
        }
    }

    /// nil when the document is as it was when the form opened; otherwise whether it is gone.
    func conflict(for session: FormSession, id: String) -> Bool? {
        if session.changedSinceDraft { return false }
        guard let tab = tabs.first(where: { $0.collectionID == session.tabID }) else { return nil }
        guard let index = tab.index(of: id) else { return true }
        return tab.snapshot(at: index) === session.original ? nil : false
    }

    func closeForm() {
        state.mode = .browse
        state.showsLookup = false
    }

    // MARK: Drafts

    /// The form as a draft, when one holds typed text (`sessionToKeep`); what SIGTERM and
    /// SIGHUP keep.
    public var formDraft: FormDraft? { sessionToKeep.map(draft(of:)) }

    /// The form of a save that failed or has not finished, as a draft: kept however Shelf
    /// quits, since no question was asked about it.
    public var unsavedDraft: FormDraft? { unsavedSession.map(draft(of:)) }

    func draft(of session: FormSession) -> FormDraft {
        FormDraft(title: session.spec.title, collectionID: session.tabID, documentID: session.documentID,
                         labels: session.widget.fields.map(\.label), values: session.widget.values,
                         initialValues: session.initialValues, focus: session.widget.focus)
    }

    /// Opens the draft's form on its tab with the text it held.
    func reopen(_ draft: FormDraft) {
        guard let index = tabs.firstIndex(where: { $0.collectionID == draft.collectionID }) else {
            notice = "The draft's collection '\(draft.collectionID)' is gone; the draft stays in \(draftFile?.url.path ?? "its file")"
            return
        }
        state.switchTab(to: index)
        guard state.isReady(tab) else { state.draftWaitingForLoad = draft; return }
        var documentIndex: Int?
        if let id = draft.documentID {
            documentIndex = tab.index(of: id)
            if documentIndex == nil { notice = "\(draft.collectionID)/\(id) no longer exists: saving adds it as a new document" }
        }
        openForm(editing: documentIndex)
        guard case .form(var session) = state.mode, session.widget.fields.map(\.label) == draft.labels else {
            notice = "The draft no longer fits the form; it stays in \(draftFile?.url.path ?? "its file")"
            closeForm()
            return
        }
        session.changedSinceDraft = documentIndex != nil && session.initialValues != draft.initialValues
        for (field, value) in draft.values.enumerated() {
            session.widget.fields[field].text = value
            session.widget.fields[field].field.moveToEnd()
        }
        session.widget.focus = min(max(0, draft.focus), session.widget.fields.count - 1)
        session.initialValues = draft.initialValues
        session.initialCharacters = draft.initialValues.map(Array.init)
        session.validate(all: false)
        state.mode = .form(session)
        draftFile?.remove()
        if notice == nil { notice = "Reopened the draft of \(draft.title)" }
    }

    // MARK: Confirmations

    func handleConfirm(_ confirmation: Confirmation, _ key: Key) {
        guard let action = Keymap.confirm.action(for: key) else { return }
        switch (confirmation, action) {
        case (.delete(let id), .yes):
            state.mode = .browse
            delete(id: id)
        case (.delete, _):
            state.mode = .browse
        case (.discardForm, .yes):
            closeForm()
            notice = "Changes discarded"
        case (.discardForm(let session), _):
            state.mode = .form(session)
        case (.conflict(let session, _), .yes):
            state.mode = .form(session)
            saveForm(session, overwrite: true)
        case (.undoConflict(let change, let redo, _), .yes):
            state.mode = .browse
            revert(change, redo: redo, evenIfChangedSince: true)
        case (.undoConflict(let change, let redo, _), _):
            state.mode = .browse
            if redo { state.history.pushRedo(change) } else { state.history.pushUndo(change) }
            notice = "Not \(redo ? "redone" : "undone"): \(change.path) is as it is on disk; \(redo ? "Ctrl-R" : "u") asks again"
        case (.quit, .yes):
            break  // handled by the caller, which quits
        case (.quit(let before), _):
            state.mode = before
        case (.reopenDraft(let draft), .yes):
            state.mode = .browse
            reopen(draft)
        case (.reopenDraft, _):
            state.mode = .browse
            draftFile?.remove()
            notice = "Draft discarded"
        case (.conflict(let session, let deleted), _):
            if deleted || key == .escape {
                state.mode = .form(session)
            } else if let id = session.documentID, let index = tab.index(of: id) {
                closeForm()
                openForm(editing: index)
                notice = "Reloaded from disk; your edits were dropped"
            }
        }
    }
}

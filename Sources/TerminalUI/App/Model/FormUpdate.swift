import DocumentStore
import TerminalKit

/// Forms (`a`, `e`): opening one on the shown tab, typing in it, saving it (a write, after a
/// question when its document changed on disk since it opened), cancelling it, and reopening
/// a draft kept when Shelf was stopped.
@MainActor
struct FormUpdate {
    /// The data folder cannot be written: no form opens.
    let isReadOnly: Bool
    /// Which ids a new document's Id field takes (a folder's are fewer than Firestore's).
    let idRules: IDRules
    /// Where a draft is kept: removed once its form is reopened (or discarded).
    let draftFile: DraftFile?
    /// Starts a save's write.
    let writing: WriteUpdate

    /// Opens the shown tab's form on the document at `index`, or a new one's.
    func open(editing index: Int?, in state: inout AppState) -> Reply {
        guard !isReadOnly else { return Reply(notice: "The folder is read-only: nothing can be changed") }
        let tab = state.tab
        let spec = index == nil ? tab.form(editing: nil).choosingID(rules: idRules) : tab.form(editing: index)
        let fields = spec.fields.map {
            FormField(label: $0.label, text: $0.text, placeholder: $0.rule.hint, choices: $0.rule.choices, keptChoice: $0.rule.keptChoice)
        }
        let original = index.flatMap { tab.snapshot(at: $0) }
        // A new document's form starts at its first field, below the Id most leave blank.
        let focus = index == nil && fields.count > 1 ? 1 : 0
        var session = FormSession(spec: spec, widget: FormWidget(fields: fields, focus: focus), initialValues: fields.map(\.text),
                                  tabID: tab.collectionID, documentID: original?.documentID, original: original,
                                  initialCharacters: fields.map(\.field.characters))
        session.validate(all: false)
        state.mode = .form(session)
        return Reply()
    }

    /// A key typed in the form.
    func handle(_ key: Key, _ session: FormSession, in state: inout AppState) -> Reply {
        var session = session
        switch Keymap.form.action(for: key) {
        case .save?: return save(session, in: &state)
        case .cancel?: if session.isDirty { state.mode = .confirm(.discardForm(session)) } else { state.closeForm() }
        case .nextField?: session.widget.focusNext(); state.mode = .form(session)
        case .previousField?: session.widget.focusPrevious(); state.mode = .form(session)
        default:
            _ = session.widget.handle(key)
            session.validate(all: false, only: session.widget.focus)
            state.mode = .form(session)
        }
        return Reply()
    }

    /// Saves the form when every field is valid and its document is as it was when the form
    /// opened (or `overwrite`, the question answered); the form closes as a save that worked
    /// closes it, and a failure brings it back.
    func save(_ session: FormSession, overwrite: Bool = false, in state: inout AppState) -> Reply {
        var session = session
        guard session.validate(all: true) else {
            state.mode = .form(session)
            return Reply(notice: "Not saved: fix the marked fields first")
        }
        if !overwrite, let id = session.documentID, let conflict = Self.conflict(for: session, id: id, in: state) {
            state.mode = .confirm(.conflict(session, deleted: conflict))
            return Reply()
        }
        let write: FormWrite
        do {
            write = try session.spec.save(session.widget.values)
        } catch {
            state.mode = .form(session)
            return Reply(notice: "Not saved: \(error)")
        }
        state.closeForm()
        return writing.start(.save(write), for: .save(session))
    }

    /// nil when the document is as it was when the form opened; otherwise whether it is gone.
    static func conflict(for session: FormSession, id: String, in state: AppState) -> Bool? {
        if session.changedSinceDraft { return false }
        guard let tab = state.tabSet.all.first(where: { $0.collectionID == session.tabID }) else { return nil }
        guard let index = tab.index(of: id) else { return true }
        return tab.snapshot(at: index) === session.original ? nil : false
    }

    /// Opens the draft's form on its tab with the text it held; once the tab has loaded, when
    /// it has not yet.
    func reopen(_ draft: FormDraft, in state: inout AppState) -> Reply {
        guard let index = state.tabSet.all.firstIndex(where: { $0.collectionID == draft.collectionID }) else {
            return Reply(notice: "The draft's collection '\(draft.collectionID)' is gone; the draft stays in \(draftFile?.url.path ?? "its file")")
        }
        state.switchTab(to: index)
        guard state.isReady(state.tab) else { state.draftWaitingForLoad = draft; return Reply() }
        var reply = Reply()
        var documentIndex: Int?
        if let id = draft.documentID {
            documentIndex = state.tab.index(of: id)
            if documentIndex == nil { reply.notice = "\(draft.collectionID)/\(id) no longer exists: saving adds it as a new document" }
        }
        reply.add(open(editing: documentIndex, in: &state))
        guard case .form(var session) = state.mode, session.widget.fields.map(\.label) == draft.labels else {
            reply.notice = "The draft no longer fits the form; it stays in \(draftFile?.url.path ?? "its file")"
            state.closeForm()
            return reply
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
        reply.fallbackNotice = "Reopened the draft of \(draft.title)"
        return reply
    }
}

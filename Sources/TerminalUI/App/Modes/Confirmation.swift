import ShelfModels
import TerminalKit

/// A question the user answers with y or n (Esc) before anything else happens.
enum Confirmation {
    case delete(id: String)
    case discardForm(FormSession)
    /// The document changed (or went) on disk since the form opened.
    case conflict(FormSession, deleted: Bool)
    /// `u` or `Ctrl-R` on a document changed on disk since the change they revert.
    case undoConflict(UndoHistory.Change, redo: Bool, isGone: Bool)
    /// Ctrl-C with a changed form: quit and lose the text? `n` goes back to `before`.
    indirect case quit(before: Mode)
    /// A draft was kept when Shelf was last stopped: reopen it?
    case reopenDraft(FormDraft)

    /// The keys that answer it, named as its dialog names the answers: what the hint line
    /// shows and what a key pressed is looked up in. A form's conflict on a document changed
    /// on disk has a third way out: Esc goes back to the form, while n reloads it.
    @MainActor func bindings(in model: AppModel) -> [KeyBinding<Keymap.Action>] {
        let dialog = dialog(in: model)
        let escapeGoesBack = if case .conflict(_, deleted: false) = self { true } else { false }
        return Keymap.confirm(yes: dialog.yesLabel, no: dialog.noLabel, back: escapeGoesBack ? "Back to the form" : nil)
    }

    /// The question as its dialog asks it, naming what it is about.
    @MainActor func dialog(in model: AppModel) -> ConfirmDialog {
        let path = model.form.map { "\($0.tabID)/\($0.documentID ?? "")" } ?? ""
        switch self {
        case .delete(let id):
            let unreadable = model.tab.index(of: id).flatMap { model.tab.snapshot(at: $0) }.map { $0.readError != nil } ?? false
            let name = model.tab.index(of: id).flatMap { model.tab.name(at: $0) }
            let what = name.map { "“\($0.truncated(toWidth: 40))” (\(model.tab.collectionID)/\(id))" } ?? "\(model.tab.collectionID)/\(id)"
            return ConfirmDialog(title: "Delete", question: "Delete \(what)? Its file is removed"
                                 + (unreadable ? ", and as it cannot be read, u cannot bring it back." : "; u brings it back."))
        case .discardForm:
            return ConfirmDialog(title: "Discard", question: "Discard what you typed?", yesLabel: "Discard", noLabel: "Keep editing")
        case .quit:
            return ConfirmDialog(title: "Quit", question: "Quit and lose what you typed in \(model.form?.spec.title ?? "the form")?",
                                 yesLabel: "Quit", noLabel: "Back to the form")
        case .reopenDraft(let draft):
            let when = draft.savedAt.formatted(date: .abbreviated, time: .shortened)
            return ConfirmDialog(title: "Draft kept", question: "\(draft.title): what you typed was kept when Shelf was stopped (\(when)). Reopen it?",
                                 yesLabel: "Reopen", noLabel: "Discard")
        case .undoConflict(let change, let redo, let isGone):
            let verb = redo ? "Redo" : "Undo"
            let since = redo ? "it was undone" : "your change"
            let setter = redo ? "the undo" : "your change"
            let outcome: String
            switch (change.before == nil, isGone) {
            case (true, true): outcome = "It stays deleted."
            case (true, false): outcome = "\(verb)ing removes it, with what changed since."
            case (false, true): outcome = "It is written again as it was before \(setter)."
            case (false, false): outcome = "Only the fields \(setter) set go back (\(change.fieldsSet.joined(separator: ", "))); the rest stays as it is now."
            }
            let what = isGone ? "was deleted on disk" : "changed on disk"
            return ConfirmDialog(title: isGone ? "Deleted on disk" : "Changed on disk", question: "\(change.path) \(what) since \(since). \(verb) anyway? \(outcome)",
                                 yesLabel: "\(verb) anyway", noLabel: "Leave it")
        case .conflict(_, let deleted):
            return deleted
                ? ConfirmDialog(title: "Deleted on disk", question: "\(path) was deleted since this form opened. Save it again?",
                                yesLabel: "Save again", noLabel: "Keep editing")
                : ConfirmDialog(title: "Changed on disk", question: "\(path) changed on disk since this form opened. Overwrite it with your version? (Esc: back to the form)",
                                yesLabel: "Overwrite", noLabel: "Reload")
        }
    }
}

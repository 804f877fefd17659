import TerminalKit

/// What the keys do now, each mode holding what it alone needs: the form's session is
/// inside `.form`, so a form mode without a form cannot be written.
enum Mode {
    case browse
    /// `/`: the filter being typed.
    case filter(TextField)
    /// `o` or `:`: what is being typed, and the names Tab listed while it cycles through them.
    case prompt(Prompt, TextField, completion: IDCompletion?)
    case form(FormSession)
    /// Lines of the help scrolled off its top.
    case help(offset: Int)
    /// `m`: the last messages, whole; lines scrolled off the top.
    case messages(offset: Int)
    /// `v`: the selected document's stored JSON fills the detail pane.
    case raw(RawJSONView)
    case confirm(Confirmation)

    /// What a line typed in the status line is for.
    enum Prompt {
        /// `o`: a document's id, in the shown tab.
        case open
        /// `:`: a row's number, or a tab's name.
        case goTo
    }

    /// The form being typed in, also while a question about it is asked.
    var form: FormSession? {
        switch self {
        case .form(let session), .confirm(.discardForm(let session)), .confirm(.conflict(let session, _)): session
        case .confirm(.quit(let before)): before.form
        default: nil
        }
    }
}

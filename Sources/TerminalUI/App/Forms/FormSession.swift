import DocumentStore
import TerminalKit

/// An open form and what it was opened on.
struct FormSession {
    var spec: FormSpec
    var widget: FormWidget
    var initialValues: [String]
    let tabID: String
    let documentID: String?
    let original: DocumentSnapshot?
    /// Reopened from a draft whose document has changed since: saving asks first.
    var changedSinceDraft = false
    /// The initial values as the fields hold them: comparing these is cheap (same count
    /// and same storage say "unchanged" at once), so a frame never rebuilds a 1 MiB text.
    var initialCharacters: [[Character]]
    var isDirty: Bool { zip(widget.fields, initialCharacters).contains { $0.field.characters != $1 } }

    /// Shows each rule's message next to its field (or only field `only`'s); `all` also marks
    /// empty untouched fields. Returns whether every field checked is valid.
    @discardableResult
    mutating func validate(all: Bool, only: Int? = nil) -> Bool {
        var valid = true
        for (index, field) in spec.fields.enumerated() where only == nil || only == index {
            let text = widget.fields[index].text
            let message = field.rule.check(text)
            if message != nil { valid = false }
            let show = all || text != initialValues[index] || !text.isEmpty
            widget.fields[index].message = show ? message : nil
        }
        return valid
    }
}

extension FormSession {
    /// The form as a draft: what SIGTERM and SIGHUP keep of it.
    var draft: FormDraft {
        FormDraft(title: spec.title, collectionID: tabID, documentID: documentID, labels: widget.fields.map(\.label),
                  values: widget.values, initialValues: initialValues, focus: widget.focus)
    }
}

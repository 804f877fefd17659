import TerminalKit

/// Every key Shelf answers, per mode. The same tables drive key handling, the hint line and
/// the help overlay, so the three never disagree.
enum Keymap {
    enum Action {
        case up, down, pageUp, pageDown, top, bottom
        case nextTab, previousTab, tabNumber
        case scrollDetailDown, scrollDetailUp
        case sortNext, sortReverse
        case filter, open, add, edit, openInEditor, delete, undo, help, quit, clearFilter
        case rawView, copyJSON, copyPath, copyID, copyValue, redo, collections, messages, goTo, nextMatch, previousMatch
        case columnLeft, columnRight, moveColumnLeft, moveColumnRight, hideColumn, showColumns, widenColumn
        case save, cancel, nextField, previousField, choose
        case yes, no, suspend
        /// The mouse: what a click or the wheel does depends on where it points.
        case pointer
    }

    static let browse: [KeyBinding<Action>] = [
        KeyBinding(keys: [.up, .character("k")], action: Action.up, description: "Move up"),
        KeyBinding(keys: [.down, .character("j")], action: Action.down, description: "Move down"),
        KeyBinding(keys: [.pageUp], action: Action.pageUp, description: "Page up"),
        KeyBinding(keys: [.pageDown], action: Action.pageDown, description: "Page down"),
        KeyBinding(keys: [.home, .character("g")], action: Action.top, description: "First document"),
        KeyBinding(keys: [.end, .character("G")], action: Action.bottom, description: "Last document"),
        KeyBinding(keys: [.character("J")], action: Action.scrollDetailDown, description: "Scroll the detail down"),
        KeyBinding(keys: [.character("K")], action: Action.scrollDetailUp, description: "Scroll the detail up"),
        KeyBinding(keys: [.tab], action: Action.nextTab, description: "Next tab", hint: "tabs"),
        KeyBinding(keys: [.backTab], action: Action.previousTab, description: "Previous tab"),
        KeyBinding(keys: (1...9).map { .character(Character("\($0)")) }, action: Action.tabNumber,
                   description: "Tab 1-9 (1 books, 2 colors, 3 languages, 4 offices, 5 articles)"),
        KeyBinding(keys: [.character("/")], action: Action.filter,
                   description: "Filter by every shown field as you type (case and accents ignored); pages>400 compares a field", hint: "filter"),
        KeyBinding(keys: [.character("s")], action: Action.sortNext, description: "Sort by the next column (ascending first)", hint: "sort"),
        KeyBinding(keys: [.character("S")], action: Action.sortReverse, description: "Reverse the sort direction"),
        KeyBinding(keys: [.left, .character("h")], action: Action.columnLeft, description: "Column cursor left (the columns scroll to keep it in view)"),
        KeyBinding(keys: [.right, .character("l")], action: Action.columnRight, description: "Column cursor right"),
        KeyBinding(keys: [.character("H")], action: Action.moveColumnLeft, description: "Move the cursor's column left"),
        KeyBinding(keys: [.character("L")], action: Action.moveColumnRight, description: "Move the cursor's column right"),
        KeyBinding(keys: [.character("_")], action: Action.widenColumn, description: "Widen the cursor's column to its longest value in view (again: back)"),
        KeyBinding(keys: [.character("-")], action: Action.hideColumn, description: "Hide the cursor's column"),
        KeyBinding(keys: [.character("+")], action: Action.showColumns, description: "Show every hidden column again"),
        KeyBinding(keys: [.escape], action: Action.clearFilter, description: "Clear the filter (n/N then go to its matches; again: forget them)"),
        KeyBinding(keys: [.character("n")], action: Action.nextMatch, description: "Next row the cleared filter matches (highlighted in the whole list)"),
        KeyBinding(keys: [.character("N")], action: Action.previousMatch, description: "Previous row the cleared filter matches"),
        KeyBinding(keys: [.character("o")], action: Action.open, description: "Open a document by id", hint: "open"),
        KeyBinding(keys: [.character(":")], action: Action.goTo, description: "Go to a row by its number (:120) or a tab by its name (:colors; Tab completes)"),
        // Before the other minor hints (E, u), which give way first.
        KeyBinding(keys: [.character("m")], action: Action.messages,
                   description: "Show the last 50 messages whole, newest first (the status line may cut them)",
                   hint: "messages", isMinorHint: true),
        KeyBinding(keys: [.character("a")], action: Action.add, description: "Add a document in a form (an Id typed names it; blank: automatic; without a model: a field as name: JSON value)", hint: "add"),
        KeyBinding(keys: [.character("e"), .enter], action: Action.edit, description: "Edit the selected document (without a model: each field as JSON; broken: in the editor)", hint: "edit"),
        KeyBinding(keys: [.character("E")], action: Action.openInEditor,
                   description: "Open its file in $VISUAL/$EDITOR/vi (fixes a broken one)", hint: "editor", isMinorHint: true),
        KeyBinding(keys: [.character("c")], action: Action.collections,
                   description: "Open the selected document's collections (books/dune/reviews) as tabs"),
        KeyBinding(keys: [.character("v")], action: Action.rawView, description: "Show its stored JSON (scrolls; v or Esc closes)"),
        KeyBinding(keys: [.character("Y")], action: Action.copyJSON, description: "Copy its JSON to the clipboard (OSC 52)"),
        KeyBinding(keys: [.character("y")], action: Action.copyPath, description: "Copy its path (books/dune) to the clipboard (OSC 52)"),
        KeyBinding(keys: [.character("i")], action: Action.copyID, description: "Copy its id (dune)"),
        KeyBinding(keys: [.character("C")], action: Action.copyValue, description: "Copy its value in the cursor's column (h/l move it)"),
        KeyBinding(keys: [.character("d")], action: Action.delete, description: "Delete the selected document (asks y/n)", hint: "delete"),
        KeyBinding(keys: [.character("u")], action: Action.undo, description: "Undo the last add, delete or edit (again: the one before)", hint: "undo", isMinorHint: true),
        KeyBinding(keys: [.ctrl("r")], action: Action.redo, description: "Redo what u undid"),
        KeyBinding(keys: [.character("?")], action: Action.help, description: "Show or hide this help", hint: "help"),
        KeyBinding(keys: [.character("q")], action: Action.quit, description: "Quit", hint: "quit"),
    ]

    static let form: [KeyBinding<Action>] = [
        KeyBinding(keys: [.tab, .down], action: Action.nextField, description: "Next field", hint: "next"),
        KeyBinding(keys: [.backTab, .up], action: Action.previousField, description: "Previous field"),
        KeyBinding(keys: [.left, .right, .character(" ")], action: Action.choose,
                   description: "In a field with choices (a status): the previous or next value; a letter jumps"),
        KeyBinding(keys: [.enter], action: Action.save, description: "Save (when every field is valid)", hint: "save"),
        KeyBinding(keys: [.escape], action: Action.cancel, description: "Cancel (asks first if you typed)", hint: "cancel"),
    ]

    static let textInput: [KeyBinding<Action>] = [
        KeyBinding(keys: [.enter], action: Action.save, description: "Keep the filter, back to the list", hint: "done"),
        KeyBinding(keys: [.escape], action: Action.cancel, description: "Clear and close", hint: "cancel"),
    ]

    static let openPrompt: [KeyBinding<Action>] = [
        KeyBinding(keys: [.enter], action: Action.save, description: "Open the document", hint: "open"),
        KeyBinding(keys: [.tab], action: Action.nextField, description: "Complete the id; again: list the ids and cycle", hint: "complete"),
        KeyBinding(keys: [.backTab], action: Action.previousField, description: "Cycle back through the ids listed"),
        KeyBinding(keys: [.escape], action: Action.cancel, description: "Cancel", hint: "cancel"),
    ]

    static let goToPrompt: [KeyBinding<Action>] = [
        KeyBinding(keys: [.enter], action: Action.save, description: "Go to the row or the tab", hint: "go"),
        KeyBinding(keys: [.tab], action: Action.nextField, description: "Complete a tab's name; again: list the tabs and cycle", hint: "complete"),
        KeyBinding(keys: [.backTab], action: Action.previousField, description: "Cycle back through the tabs listed"),
        KeyBinding(keys: [.escape], action: Action.cancel, description: "Cancel", hint: "cancel"),
    ]

    /// A question's keys, the answers named as its dialog names them. Esc answers no, unless
    /// the question has a third way out (`back`: a form's conflict goes back to the form,
    /// while n reloads it).
    static func confirm(yes: String, no: String, back: String? = nil) -> [KeyBinding<Action>] {
        guard let back else {
            return [KeyBinding(keys: [.character("y")], action: Action.yes, description: yes, hint: yes),
                    KeyBinding(keys: [.character("n"), .escape], action: Action.no, description: no, hint: no)]
        }
        return [KeyBinding(keys: [.character("y")], action: Action.yes, description: yes, hint: yes),
                KeyBinding(keys: [.character("n")], action: Action.no, description: no, hint: no),
                KeyBinding(keys: [.escape], action: Action.cancel, description: back)]
    }

    /// The keys of a view that scrolls (the help, the JSON view).
    private static let scrolling: [KeyBinding<Action>] = [
        KeyBinding(keys: [.down, .character("j")], action: Action.down, description: "Scroll down", hint: "scroll"),
        KeyBinding(keys: [.up, .character("k")], action: Action.up, description: "Scroll up"),
        KeyBinding(keys: [.pageDown, .character(" ")], action: Action.pageDown, description: "Page down"),
        KeyBinding(keys: [.pageUp], action: Action.pageUp, description: "Page up"),
        KeyBinding(keys: [.home, .character("g")], action: Action.top, description: "Top"),
        KeyBinding(keys: [.end, .character("G")], action: Action.bottom, description: "Bottom"),
    ]

    static let help: [KeyBinding<Action>] = scrolling + [
        KeyBinding(keys: [.escape, .character("?"), .character("q")], action: Action.cancel, description: "Close the help", hint: "close"),
    ]

    static let messages: [KeyBinding<Action>] = scrolling + [
        KeyBinding(keys: [.escape, .character("m"), .character("q")], action: Action.cancel, description: "Close the messages", hint: "close"),
    ]

    static let raw: [KeyBinding<Action>] = scrolling + [
        KeyBinding(keys: [.character("Y")], action: Action.copyJSON, description: "Copy it to the clipboard (OSC 52)", hint: "copy"),
        KeyBinding(keys: [.escape, .character("v"), .character("q")], action: Action.cancel, description: "Back to the detail", hint: "close"),
    ]

    /// The mouse, for the help only (events carry a point, so they are not looked up here).
    static let mouse: [KeyBinding<Action>] = [
        KeyBinding(keys: [.mouse(MouseEvent(.press, at: .zero))], action: Action.pointer, description: "Select a row or a tab; a column's title sorts by it"),
        KeyBinding(keys: [.mouse(MouseEvent(.wheelDown, at: .zero))], action: Action.pointer,
                   description: "Scroll what is under the pointer: list, detail, help"),
    ]

    static let global: [KeyBinding<Action>] = [
        KeyBinding(keys: [.ctrl("c")], action: Action.quit, description: "Quit from anywhere"),
        KeyBinding(keys: [.ctrl("z")], action: Action.suspend, description: "Suspend to the shell (fg comes back)"),
    ]
}

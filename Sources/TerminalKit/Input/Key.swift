/// A key press, as the backend decodes it from the terminal. Pure data: the screens map keys
/// to actions through their `KeyBinding` tables.
public enum Key: Hashable, Sendable {
    /// A printable character (a whole grapheme), including " ".
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case tab, backTab
    case enter, escape, backspace, delete, insert
    /// Ctrl with a letter, lowercase: `.ctrl("c")` is Ctrl-C (delivered as a key, not SIGINT).
    case ctrl(Character)
    /// The terminal changed size; read the new size before drawing.
    case resize
    /// A click or a turn of the wheel, where it happened.
    case mouse(MouseEvent)
    /// A code the backend does not know (function keys, mouse...), kept for diagnostics.
    case unknown(Int32)

    /// How the key is written in the help overlay and the hint line: "q", "↑", "Ctrl-C",
    /// "Enter", "Space".
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .delete: return "Del"
        case .insert: return "Ins"
        case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
        case .resize: return "Resize"
        case .mouse(let event): return event.label
        case .unknown(let code): return "Key \(code)"
        }
    }
}

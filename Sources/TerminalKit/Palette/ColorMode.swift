/// How many colours the terminal shows, and so how a `TerminalColor` becomes a palette index.
public enum ColorMode: String, Hashable, Sendable, CaseIterable {
    /// No colour at all: NO_COLOR is set, or the terminal has none. Widgets stay readable
    /// through text, reverse video and bold.
    case none
    /// Colours 0-7.
    case basic8
    /// Colours 0-15.
    case basic16
    /// The xterm 256-colour palette; `.rgb` maps to 16-255 as tmux does.
    case palette256

    /// The mode for a terminal reporting `colorCount` colours (ncurses' COLORS; 0 when it has
    /// no colour support) in an environment whose NO_COLOR value is `noColor`. NO_COLOR set
    /// to anything but the empty string turns colour off (https://no-color.org).
    public init(colorCount: Int, noColor: String?) {
        if let noColor, !noColor.isEmpty {
            self = .none
        } else if colorCount >= 256 {
            self = .palette256
        } else if colorCount >= 16 {
            self = .basic16
        } else if colorCount >= 8 {
            self = .basic8
        } else {
            self = .none
        }
    }

    public var usesColor: Bool { self != .none }

    /// The palette index to draw `color` with, or nil for the terminal's default colour
    /// (always nil in `.none`).
    public func paletteIndex(for color: TerminalColor) -> Int? {
        guard case let .rgb(red, green, blue) = color else { return nil }
        switch self {
        case .none: return nil
        case .basic8: return XtermPalette.nearest8(red: red, green: green, blue: blue)
        case .basic16: return XtermPalette.nearest16(red: red, green: green, blue: blue)
        case .palette256: return XtermPalette.index256(red: red, green: green, blue: blue)
        }
    }
}

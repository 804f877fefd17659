/// How a cell looks: colours and attributes. Everything a widget shows must stay readable
/// with the colours dropped (ColorMode.none), so state is carried by text, reverse and bold.
public struct Style: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool
    public var dim: Bool

    public init(foreground: TerminalColor = .default, background: TerminalColor = .default,
                bold: Bool = false, reverse: Bool = false, underline: Bool = false, dim: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }

    /// Terminal defaults, no attributes.
    public static let plain = Style()

    public func withForeground(_ color: TerminalColor) -> Style { var s = self; s.foreground = color; return s }
    public func withBackground(_ color: TerminalColor) -> Style { var s = self; s.background = color; return s }
    public func bolded(_ on: Bool = true) -> Style { var s = self; s.bold = on; return s }
    public func reversed(_ on: Bool = true) -> Style { var s = self; s.reverse = on; return s }
    public func underlined(_ on: Bool = true) -> Style { var s = self; s.underline = on; return s }
    public func dimmed(_ on: Bool = true) -> Style { var s = self; s.dim = on; return s }
}

/// A colour as widgets ask for it. `.rgb` is resolved to a palette index only when drawing,
/// by `ColorMode.paletteIndex(for:)`, so the same canvas works on 256, 16, 8 and no colours.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own foreground or background.
    case `default`
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    /// An opaque terminal colour for `color`; a translucent colour is blended over
    /// `background` first (the terminal's background, assumed black unless known).
    public init(_ color: RGBColor, over background: RGBColor = .black) {
        let opaque = XtermPalette.composite(color, over: background)
        self = .rgb(red: opaque.red, green: opaque.green, blue: opaque.blue)
    }
}

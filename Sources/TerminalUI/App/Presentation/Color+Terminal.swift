import ShelfModels
import TerminalKit

/// Where the sample app's `Color` meets the toolkit's `RGBColor`: the one crossing between
/// them, so widgets know no model and the models no terminal.
extension RGBColor {
    init(_ color: Color) {
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }
}

extension Color {
    init(_ color: RGBColor) {
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }
}

extension TerminalColor {
    /// An opaque terminal colour for `color`, blended over `background` when translucent.
    init(_ color: Color, over background: Color = .black) {
        self.init(RGBColor(color), over: RGBColor(background))
    }
}

extension Swatch {
    /// A swatch of a document's colour: its hex code across it, in the sample app's readable
    /// black or white for the colour as blended over the terminal's background.
    init(color: Color, mode: ColorMode, terminalBackground: Color = .black, showsHex: Bool = true) {
        let opaque = XtermPalette.composite(RGBColor(color), over: RGBColor(terminalBackground))
        self.init(color: RGBColor(color), label: color.hex, labelColor: RGBColor(Color(opaque).readableTextColor),
                  mode: mode, terminalBackground: RGBColor(terminalBackground), showsLabel: showsHex)
    }
}

import ShelfModels

/// A block of cells filled with a colour, its hex code written across the middle in a
/// readable black or white. Without colour (`ColorMode.none`) the block is drawn in reverse
/// video with the hex code in it, so the value is still there to read.
public struct Swatch: Widget, Hashable, Sendable {
    public var color: Color
    public var mode: ColorMode
    /// What a translucent colour is blended over: the terminal's background.
    public var terminalBackground: Color
    public var showsHex: Bool

    public init(color: Color, mode: ColorMode, terminalBackground: Color = .black, showsHex: Bool = true) {
        self.color = color
        self.mode = mode
        self.terminalBackground = terminalBackground
        self.showsHex = showsHex
    }

    /// The style of the swatch's cells in colour modes.
    public var fillStyle: Style {
        let opaque = XtermPalette.composite(color, over: terminalBackground)
        return Style(foreground: TerminalColor(opaque.readableTextColor),
                     background: TerminalColor(opaque))
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        guard !area.isEmpty else { return }
        let style = mode.usesColor ? fillStyle : Style(reverse: true)
        canvas.fill(area, style: style)
        guard showsHex || !mode.usesColor else { return }
        let text = color.hex.truncated(toWidth: area.width)
        let x = area.x + (area.width - text.displayWidth) / 2
        canvas.write(text, at: Point(x: x, y: area.y + (area.height - 1) / 2), style: style,
                     clippedTo: area.maxX - x)
    }
}

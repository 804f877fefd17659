/// A block of cells filled with a colour, a label (its code, say) written across the middle in
/// `labelColor`. Without colour (`ColorMode.none`) the block is drawn in reverse video with the
/// label in it, so the value is still there to read.
public struct Swatch: Widget, Hashable, Sendable {
    public var color: RGBColor
    public var mode: ColorMode
    /// What a translucent colour is blended over: the terminal's background.
    public var terminalBackground: RGBColor
    /// Written across the middle; in colour modes only when `showsLabel`.
    public var label: String
    /// The label's colour in colour modes: one that stays legible on the blended colour.
    public var labelColor: RGBColor
    public var showsLabel: Bool

    public init(color: RGBColor, label: String, labelColor: RGBColor, mode: ColorMode,
                terminalBackground: RGBColor = .black, showsLabel: Bool = true) {
        self.color = color
        self.label = label
        self.labelColor = labelColor
        self.mode = mode
        self.terminalBackground = terminalBackground
        self.showsLabel = showsLabel
    }

    /// The style of the swatch's cells in colour modes.
    public var fillStyle: Style {
        Style(foreground: TerminalColor(labelColor),
              background: TerminalColor(XtermPalette.composite(color, over: terminalBackground)))
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        guard !area.isEmpty else { return }
        let style = mode.usesColor ? fillStyle : Style(reverse: true)
        canvas.fill(area, style: style)
        guard showsLabel || !mode.usesColor else { return }
        let text = label.truncated(toWidth: area.width)
        let x = area.x + (area.width - text.displayWidth) / 2
        canvas.write(text, at: Point(x: x, y: area.y + (area.height - 1) / 2), style: style,
                     clippedTo: area.maxX - x)
    }
}

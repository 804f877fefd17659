/// A box drawn with line characters around an area, with an optional title in the top
/// border and an optional footer in the bottom one. `inner(of:)` is where the content goes.
public struct Frame: Widget, Hashable, Sendable {
    public var title: String?
    public var footer: String?
    public var style: Style
    /// A focused frame shows its title in reverse video, so focus is visible without colour.
    public var isFocused: Bool

    public init(title: String? = nil, footer: String? = nil, style: Style = .plain, isFocused: Bool = false) {
        self.title = title
        self.footer = footer
        self.style = style
        self.isFocused = isFocused
    }

    /// The area inside the border.
    public func inner(of area: Rect) -> Rect { area.insetBy(dx: 1, dy: 1) }

    /// Clears the whole area and draws the border around it.
    public func render(into canvas: inout Canvas, area: Rect) {
        canvas.fill(area, style: style)
        guard area.width >= 2, area.height >= 2 else { return }
        let left = area.x, right = area.maxX - 1, top = area.y, bottom = area.maxY - 1
        let horizontal = String(repeating: "─", count: area.width - 2)
        canvas.write("┌" + horizontal + "┐", at: Point(x: left, y: top), style: style)
        canvas.write("└" + horizontal + "┘", at: Point(x: left, y: bottom), style: style)
        for y in (top + 1)..<bottom {
            canvas.write("│", at: Point(x: left, y: y), style: style)
            canvas.write("│", at: Point(x: right, y: y), style: style)
        }
        let room = area.width - 4  // a corner and a space on each side
        if let title, !title.isEmpty, room > 0 {
            let text = " " + title.truncated(toWidth: room) + " "
            let titleStyle = isFocused ? style.bolded().reversed() : style.bolded()
            canvas.write(text, at: Point(x: left + 1, y: top), style: titleStyle, clippedTo: area.width - 2)
        }
        if let footer, !footer.isEmpty, room > 0 {
            let text = " " + footer.truncated(toWidth: room) + " "
            canvas.write(text, at: Point(x: right - text.displayWidth, y: bottom), style: style,
                         clippedTo: area.width - 2)
        }
    }
}

/// Shown instead of the app when the terminal is smaller than the layout needs:
/// "Terminal too small: need at least 60×16, have 40×10", centred and wrapped.
public struct TooSmall: Widget, Hashable, Sendable {
    /// The smallest terminal the screens are laid out for.
    public static let minimumSize = Size(width: 60, height: 16)

    public var required: Size
    public var actual: Size

    public init(required: Size = TooSmall.minimumSize, actual: Size) {
        self.required = required
        self.actual = actual
    }

    /// True when `size` is too small for `required` in either direction.
    public static func applies(to size: Size, required: Size = TooSmall.minimumSize) -> Bool {
        !size.contains(required)
    }

    public var message: String {
        "Terminal too small: need at least \(required), have \(actual)"
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        canvas.fill(area)
        guard !area.isEmpty else { return }
        // One line when it fits, else the two halves on lines of their own.
        let lines = message.displayWidth <= area.width
            ? [message]
            : TextWrapper.wrap("Terminal too small:", width: area.width)
                + TextWrapper.wrap("need at least \(required), have \(actual)", width: area.width)
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < area.maxY {
            let x = area.x + max(0, (area.width - line.displayWidth) / 2)
            canvas.write(line, at: Point(x: x, y: top + index), style: Style(bold: true), clippedTo: area.maxX - x)
        }
    }
}

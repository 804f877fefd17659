/// A centred box listing every key binding of the current screen and the global ones:
/// a bold title per section, then one line per binding with its keys and description; or
/// any lines given (the message log).
/// The box shrinks to its content and to the area; lines that do not fit end in "…". When
/// the lines do not all fit, it scrolls by `offset` and its footer says which way there is more.
public struct HelpOverlay: Widget, Hashable, Sendable {
    public var title: String
    public var lines: [[Span]]
    public var footer: String
    public var style: Style
    /// Lines scrolled off the top (clamped when drawn).
    public var offset = 0

    public init<Action>(title: String = "Keys", sections: [HelpSection<Action>], footer: String = "Esc close",
                style: Style = .plain) {
        self.init(title: title, lines: Self.lines(of: sections, style: style), footer: footer, style: style)
    }

    public init(title: String, lines: [[Span]], footer: String, style: Style = .plain) {
        self.title = title
        self.lines = lines
        self.footer = footer
        self.style = style
    }

    /// The sections' lines, before fitting them into a box.
    static func lines<Action>(of sections: [HelpSection<Action>], style: Style) -> [[Span]] {
        let keyWidth = sections.flatMap(\.bindings).reduce(0) { max($0, $1.keyLabel.displayWidth) }
        var lines: [[Span]] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append([]) }
            lines.append([Span(section.title, style: style.bolded().underlined())])
            for binding in section.bindings {
                lines.append([
                    Span("  " + binding.keyLabel.padded(toWidth: keyWidth), style: style.bolded()),
                    Span("  " + binding.description + (binding.disabledReason.map { " (not now: \($0))" } ?? ""), style: style),
                ])
            }
        }
        return lines
    }

    func contentLines() -> [[Span]] { lines }

    /// The box this overlay draws in `area`.
    public func box(in area: Rect) -> Rect {
        let lines = contentLines()
        let contentWidth = max(lines.reduce(0) { max($0, $1.displayWidth) },
                               title.displayWidth + 2, footer.displayWidth + 2)
        return area.centered(Size(width: contentWidth + 4, height: lines.count + 2))
    }

    /// The largest offset that still fills the box in `area`.
    public func maxOffset(in area: Rect) -> Int {
        max(0, contentLines().count - max(0, box(in: area).height - 2))
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let box = box(in: area)
        let start = min(max(0, offset), maxOffset(in: area))
        let more = (above: start > 0, below: start < maxOffset(in: area))
        let arrows = (more.above ? "↑" : "") + (more.below ? "↓" : "")
        let frame = Frame(title: title, footer: footer + (arrows.isEmpty ? "" : " · \(arrows) more"), style: style, isFocused: true)
        frame.render(into: &canvas, area: box)
        let inner = frame.inner(of: box).insetBy(dx: 1, dy: 0)
        guard !inner.isEmpty else { return }
        let lines = contentLines().dropFirst(start)
        for (index, line) in lines.prefix(inner.height).enumerated() {
            canvas.write(line.truncated(toWidth: inner.width), at: Point(x: inner.x, y: inner.y + index),
                         clippedTo: inner.width)
        }
    }
}

/// A centred box asking a yes/no question, e.g. "Delete colors/abc?", with "y Yes  n No"
/// under it. The screen maps y/n/Esc; the dialog only draws.
public struct ConfirmDialog: Widget, Hashable, Sendable {
    public var title: String
    public var question: String
    public var yesLabel: String
    public var noLabel: String
    public var style: Style

    public init(title: String = "Confirm", question: String, yesLabel: String = "Yes",
                noLabel: String = "No", style: Style = .plain) {
        self.title = title
        self.question = question
        self.yesLabel = yesLabel
        self.noLabel = noLabel
        self.style = style
    }

    private var answers: [Span] {
        [Span("y", style: style.bolded().reversed()), Span(" \(yesLabel)   ", style: style),
         Span("n", style: style.bolded().reversed()), Span(" \(noLabel)", style: style)]
    }

    /// The box this dialog draws in `area`: wide enough for the question, up to the area.
    public func box(in area: Rect) -> Rect {
        let maxInner = max(1, area.width - 4)
        let innerWidth = min(maxInner, max(question.displayWidth, answers.displayWidth, title.displayWidth + 2))
        let questionLines = TextWrapper.wrap(question, width: innerWidth)
        return area.centered(Size(width: innerWidth + 4, height: questionLines.count + 4))
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let box = box(in: area)
        let frame = Frame(title: title, style: style, isFocused: true)
        frame.render(into: &canvas, area: box)
        let inner = frame.inner(of: box).insetBy(dx: 1, dy: 0)
        guard !inner.isEmpty else { return }
        let lines = TextWrapper.wrap(question, width: inner.width)
        for (index, line) in lines.prefix(max(0, inner.height - 2)).enumerated() {
            canvas.write(line, at: Point(x: inner.x, y: inner.y + index), style: style.bolded(),
                         clippedTo: inner.width)
        }
        let answers = answers.truncated(toWidth: inner.width)
        let x = inner.x + (inner.width - answers.displayWidth) / 2
        canvas.write(answers, at: Point(x: x, y: inner.maxY - 1), clippedTo: inner.maxX - x)
    }
}

/// An edit form: labelled text fields, one focused. The focused field is marked with "›",
/// its label in bold and its text in reverse video, scrolled to its cursor; the others are
/// underlined and show the start of their value. Text cut off is marked with "…". A field's
/// validation message is shown under it, aligned with the text, prefixed with "!", whole when
/// the form's height allows. A picker (a field with choices) shows "◂ value ▸" and, under
/// it, dimmed, the choices.
///
/// `handle(_:)` moves focus with Tab, Shift-Tab, ↑ and ↓ and gives other keys to the
/// focused field; Enter and Esc are left to the screen (save, cancel).
public struct FormWidget: Widget, Hashable, Sendable {
    public var fields: [FormField]
    public var focus: Int
    public var labelStyle: Style
    public var messageStyle: Style

    public init(fields: [FormField], focus: Int = 0, labelStyle: Style = .plain,
                messageStyle: Style = Style(foreground: .rgb(red: 255, green: 95, blue: 95), bold: true)) {
        self.fields = fields
        self.focus = fields.isEmpty ? 0 : min(max(0, focus), fields.count - 1)
        self.labelStyle = labelStyle
        self.messageStyle = messageStyle
    }

    /// The field values in order.
    public var values: [String] { fields.map(\.text) }

    public mutating func focusNext() {
        guard !fields.isEmpty else { return }
        focus = (focus + 1) % fields.count
    }

    public mutating func focusPrevious() {
        guard !fields.isEmpty else { return }
        focus = (focus + fields.count - 1) % fields.count
    }

    /// Returns false for keys the form does not use.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .tab, .down: focusNext()
        case .backTab, .up: focusPrevious()
        default:
            guard fields.indices.contains(focus) else { return false }
            if fields[focus].choices != nil { return fields[focus].pick(key) }
            return fields[focus].field.handle(key)
        }
        return true
    }

    // MARK: Layout

    /// "› " or "  " before each label.
    private static let markerWidth = 2

    private func labelWidth(for width: Int) -> Int {
        let widest = fields.reduce(0) { max($0, DisplayWidth.of($1.label)) }
        return min(widest, max(0, width / 3))
    }

    /// Rows of each field (its own and its message's, wrapped to the text's width) from the
    /// top of the form, in an area of `size`.
    private func fieldRows(_ size: Size) -> [(row: Int, height: Int)] {
        var rows: [(row: Int, height: Int)] = []
        var next = 0
        let textWidth = max(1, size.width - Self.markerWidth - labelWidth(for: size.width) - 1)
        for field in fields {
            let choices = choiceLines(field, width: textWidth)
            let height = 1 + choices.count + messageLines(field, width: textWidth, rows: size.height - 1 - choices.count).count
            rows.append((next, height))
            next += height
        }
        return rows
    }

    private func choiceLines(_ field: FormField, width: Int) -> [String] {
        field.choices == nil ? [] : TextWrapper.wrap(field.choicesLine, width: width, maxLines: 3, markingCut: true)
    }

    /// The message whole when `rows` (the rows under the field) can hold it, else ending in "…".
    private func messageLines(_ field: FormField, width: Int, rows: Int) -> [String] {
        field.message.map { TextWrapper.wrap("! " + $0, width: width, maxLines: max(1, rows), markingCut: true) } ?? []
    }

    /// Rows scrolled off the top so that the focused field and its message are visible.
    private func scrollOffset(_ size: Size) -> Int {
        let rows = fieldRows(size)
        guard rows.indices.contains(focus) else { return 0 }
        let focused = rows[focus]
        return max(0, focused.row + focused.height - size.height)
    }

    /// Where the text of field `index` is drawn in `area` (a zero-height rect when it is
    /// scrolled out of view).
    public func fieldArea(_ index: Int, in area: Rect) -> Rect {
        let rows = fieldRows(area.size)
        guard rows.indices.contains(index) else { return Rect(x: area.x, y: area.y, width: 0, height: 0) }
        let y = rows[index].row - scrollOffset(area.size)
        let x = Self.markerWidth + labelWidth(for: area.width) + 1
        let visible = y >= 0 && y < area.height
        return Rect(x: area.x + x, y: area.y + y, width: area.width - x, height: visible ? 1 : 0)
    }

    /// Where the terminal cursor goes: in the focused field.
    public func cursorPosition(in area: Rect) -> Point? {
        guard fields.indices.contains(focus), fields[focus].choices == nil else { return nil }
        let fieldArea = fieldArea(focus, in: area)
        guard !fieldArea.isEmpty else { return nil }
        return fields[focus].field.cursorPosition(in: fieldArea)
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        canvas.fill(area)
        guard !area.isEmpty else { return }
        let labelWidth = labelWidth(for: area.width)
        for (index, field) in fields.enumerated() {
            let textArea = fieldArea(index, in: area)
            let focused = index == focus
            if !textArea.isEmpty {
                let y = textArea.y
                canvas.write(focused ? "›" : " ", at: Point(x: area.x, y: y), style: labelStyle.bolded(focused))
                canvas.write(field.label.truncated(toWidth: labelWidth),
                             at: Point(x: area.x + Self.markerWidth, y: y),
                             style: labelStyle.bolded(focused), clippedTo: labelWidth)
                // The field being edited follows its cursor; the others show their start.
                var input = field.field
                input.style = focused ? input.style.reversed() : input.style.underlined()
                if !focused { input.moveToStart() }
                if field.choices != nil {
                    let value = field.text.truncated(toWidth: max(1, textArea.width - 4))
                    input = TextField(text: "◂ \(value) ▸", cursor: 0, style: input.style)
                }
                input.render(into: &canvas, area: textArea)
            }
            guard textArea.width > 0 else { continue }
            let choices = choiceLines(field, width: textArea.width)
            let messages = messageLines(field, width: textArea.width, rows: area.height - 1 - choices.count)
            for (line, text) in choices.enumerated() {
                let y = textArea.y + 1 + line
                guard y >= area.y, y < area.maxY else { continue }
                canvas.write(text, at: Point(x: textArea.x, y: y), style: labelStyle.dimmed(), clippedTo: textArea.width)
            }
            for (line, text) in messages.enumerated() {
                let y = textArea.y + 1 + choices.count + line
                guard y >= area.y, y < area.maxY else { continue }
                canvas.write(text, at: Point(x: textArea.x, y: y), style: messageStyle, clippedTo: textArea.width)
            }
        }
    }
}

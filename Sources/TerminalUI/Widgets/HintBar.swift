/// One row of key hints built from a screen's key table: "q quit  / search  ? help".
/// Only bindings with a `hint` appear, each with its first key; hints that do not fit
/// entirely are left out rather than cut.
public struct HintBar: Widget, Hashable, Sendable {
    public var bindings: [KeyBinding]
    public var keyStyle: Style
    public var style: Style

    public init(bindings: [KeyBinding], keyStyle: Style = Style(bold: true), style: Style = .plain) {
        self.bindings = bindings
        self.keyStyle = keyStyle
        self.style = style
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let row = area.row(0)
        canvas.fill(row, style: style)
        guard !row.isEmpty else { return }
        var x = row.x
        for binding in bindings {
            guard let hint = binding.hint, let key = binding.keys.first else { continue }
            let separator = x > row.x ? 2 : 0
            let keyText = key.label
            let width = separator + keyText.displayWidth + 1 + hint.displayWidth
            guard x + width <= row.maxX else { continue }
            x += separator
            x += canvas.write(keyText, at: Point(x: x, y: row.y), style: keyStyle)
            x += canvas.write(" " + hint, at: Point(x: x, y: row.y), style: style)
        }
    }
}

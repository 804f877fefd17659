/// One row of key hints built from a screen's key table: "q quit  / search  ? help".
/// Only bindings with a `hint` that are not disabled appear, each with its first key. Where they do not all fit,
/// minor hints give way, the last first; hints that still do not fit are left out rather
/// than cut.
public struct HintBar<Action: Hashable & Sendable>: Widget, Hashable, Sendable {
    public var bindings: [KeyBinding<Action>]
    public var keyStyle: Style
    public var style: Style

    public init(bindings: [KeyBinding<Action>], keyStyle: Style = Style(bold: true), style: Style = .plain) {
        self.bindings = bindings
        self.keyStyle = keyStyle
        self.style = style
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let row = area.row(0)
        canvas.fill(row, style: style)
        guard !row.isEmpty else { return }
        var shown = bindings.filter { $0.hint != nil && $0.disabledReason == nil && !$0.keys.isEmpty }
        func width(_ hints: [KeyBinding<Action>]) -> Int {
            hints.reduce(0) { $0 + ($0 > 0 ? 2 : 0) + $1.keys[0].label.displayWidth + 1 + $1.hint!.displayWidth }
        }
        while width(shown) > row.width, let minor = shown.lastIndex(where: \.isMinorHint) { shown.remove(at: minor) }
        var x = row.x
        for binding in shown {
            let (hint, key) = (binding.hint!, binding.keys[0])
            let separator = x > row.x ? 2 : 0
            let keyText = key.label
            guard x + separator + keyText.displayWidth + 1 + hint.displayWidth <= row.maxX else { continue }
            x += separator
            x += canvas.write(keyText, at: Point(x: x, y: row.y), style: keyStyle)
            x += canvas.write(" " + hint, at: Point(x: x, y: row.y), style: style)
        }
    }
}

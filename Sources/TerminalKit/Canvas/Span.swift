/// A piece of text drawn in one style. A line of a list or a hint bar is an array of spans.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    public var displayWidth: Int { DisplayWidth.of(text) }
}

extension Array where Element == Span {
    /// Total display width of the spans.
    public var displayWidth: Int { reduce(0) { $0 + $1.displayWidth } }

    /// Whether the spans take more than `width` columns, reading no further than that.
    func exceeds(_ width: Int) -> Bool {
        var room = width
        for span in self {
            if DisplayWidth.exceeds(span.text, room) { return true }
            room -= span.displayWidth
        }
        return false
    }

    /// The spans cut to at most `width` columns; when something is cut the last visible
    /// span ends with "…" (drawn in that span's style).
    public func truncated(toWidth width: Int) -> [Span] {
        guard exceeds(width) else { return self }
        guard width > 0 else { return [] }
        var result: [Span] = []
        var remaining = width - 1  // room for the ellipsis
        for span in self {
            if !DisplayWidth.exceeds(span.text, remaining) {
                result.append(span)
                remaining -= span.displayWidth
                continue
            }
            var cut = ""
            for character in span.text {
                let w = DisplayWidth.of(character)
                if w > remaining { break }
                cut.append(character)
                remaining -= w
            }
            result.append(Span(cut + "…", style: span.style))
            return result
        }
        return result  // not reached: the spans are wider than `width`
    }
}

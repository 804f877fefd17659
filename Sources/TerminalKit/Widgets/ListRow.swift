/// One row of a `ListWidget`: styled spans, and an optional marker shown in a column of its
/// own at the left, e.g. "!" for a document that could not be read.
public struct ListRow: Hashable, Sendable {
    public var spans: [Span]
    public var marker: String?
    public var markerStyle: Style

    public init(_ spans: [Span], marker: String? = nil, markerStyle: Style = Style(bold: true)) {
        self.spans = spans
        self.marker = marker
        self.markerStyle = markerStyle
    }

    /// A row of plain text.
    public init(_ text: String, style: Style = .plain, marker: String? = nil,
                markerStyle: Style = Style(bold: true)) {
        self.init([Span(text, style: style)], marker: marker, markerStyle: markerStyle)
    }
}

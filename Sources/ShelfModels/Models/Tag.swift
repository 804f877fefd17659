/// A coloured label on a book; the colour is a CSS hex string in the document.
public struct Tag: Codable, Hashable, Sendable {
    public var title: String
    public var color: Color

    public init(title: String, color: Color) {
        self.title = title
        self.color = color
    }
}

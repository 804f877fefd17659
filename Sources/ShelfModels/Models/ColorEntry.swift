import DocumentStore

/// A named colour (the guide's custom encoder/decoder example).
public struct ColorEntry: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var name: String
    public var color: Color

    public init(id: String? = nil, name: String, color: Color) {
        self.id = id
        self.name = name
        self.color = color
    }

    public static let empty = ColorEntry(name: "", color: .red)
}

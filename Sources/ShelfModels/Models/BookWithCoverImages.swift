import DocumentStore

/// A book with a nested map of cover URLs (the guide's "custom types").
public struct BookWithCoverImages: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var title: String
    public var numberOfPages: Int
    public var author: String
    public var cover: CoverImages?
    public var color: Color

    public init(id: String? = nil, title: String, numberOfPages: Int, author: String, cover: CoverImages?, color: Color) {
        self.id = id
        self.title = title
        self.numberOfPages = numberOfPages
        self.author = author
        self.cover = cover
        self.color = color
    }
}

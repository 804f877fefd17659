import DocumentStore

/// Any book in the `books` collection, whatever its shape: the guide's models each read one
/// shape, the books screen shows them all. Optional parts are read when present and checked
/// (a tag's colour must be a valid hex colour, a cover's URLs valid URLs).
public struct ShelfBook: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var title: String
    public var numberOfPages: Int
    public var author: String
    public var genres: [String]?
    public var tags: [Tag]?
    public var cover: CoverImages?
    public var color: Color?

    public init(id: String? = nil, title: String, numberOfPages: Int, author: String, genres: [String]? = nil,
                tags: [Tag]? = nil, cover: CoverImages? = nil, color: Color? = nil) {
        self.id = id
        self.title = title
        self.numberOfPages = numberOfPages
        self.author = author
        self.genres = genres
        self.tags = tags
        self.cover = cover
        self.color = color
    }

    /// The stored keys this model knows; anything else in a document is shown as a raw field.
    public static let knownFields: Set<String> = ["title", "numberOfPages", "author", "genres", "tags", "cover", "color"]

    public static let empty = ShelfBook(title: "", numberOfPages: 0, author: "")
}

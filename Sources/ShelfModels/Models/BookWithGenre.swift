import DocumentStore

/// A book with an array of genres (the guide's "arrays").
public struct BookWithGenre: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var title: String
    public var numberOfPages: Int
    public var author: String
    public var genres: [String]

    public init(id: String? = nil, title: String, numberOfPages: Int, author: String, genres: [String]) {
        self.id = id
        self.title = title
        self.numberOfPages = numberOfPages
        self.author = author
        self.genres = genres
    }

    public static let empty = BookWithGenre(title: "", numberOfPages: 0, author: "", genres: [])
}

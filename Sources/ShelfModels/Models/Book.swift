import DocumentStore

/// The guide's basic book.
public struct Book: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var title: String
    public var numberOfPages: Int
    public var author: String

    public init(id: String? = nil, title: String, numberOfPages: Int, author: String) {
        self.id = id
        self.title = title
        self.numberOfPages = numberOfPages
        self.author = author
    }

    public static let empty = Book(title: "", numberOfPages: 0, author: "")
}

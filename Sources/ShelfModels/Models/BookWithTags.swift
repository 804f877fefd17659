import DocumentStore

/// A book with an array of maps (the guide's "arrays with custom types").
public struct BookWithTags: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var title: String
    public var numberOfPages: Int
    public var author: String
    public var tags: [Tag]

    public init(id: String? = nil, title: String, numberOfPages: Int, author: String, tags: [Tag]) {
        self.id = id
        self.title = title
        self.numberOfPages = numberOfPages
        self.author = author
        self.tags = tags
    }
}

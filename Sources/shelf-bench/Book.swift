import DocumentStore

/// The guide's book: a small document of four fields.
struct Book: Codable {
    @DocumentID var id: String?
    var title: String
    var author: String
    var numberOfPages: Int
    var genres: [String]
}

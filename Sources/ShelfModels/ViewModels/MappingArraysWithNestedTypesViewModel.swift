import DocumentStore
import Observation

/// The guide's "Mapping arrays with custom types" screen: a book's coloured tags.
@Observable @MainActor
public final class MappingArraysWithNestedTypesViewModel {
    public var book: BookWithTags?
    public var errorMessage: String?
    public let availableTags = [
        Tag(title: "Space", color: Color(red: 0x13, green: 0x1a, blue: 0x2d)),
        Tag(title: "Tea", color: Color(red: 0xd8, green: 0xbf, blue: 0xbf)),
        Tag(title: "Improbability", color: Color(red: 0xfd, green: 0x1d, blue: 0x48)),
    ]
    @ObservationIgnored private let db: Firestore

    public init(db: Firestore = .firestore()) {
        self.db = db
    }

    public func fetchBook(documentId: String = "hitchhiker-tags") async {
        switch await SingleDocument.fetch(db.collection("books").document(documentId), as: BookWithTags.self) {
        case .success(let book):
            self.book = book
            errorMessage = nil
        case .failure(let problem):
            errorMessage = problem.message
        }
    }

    /// Adds the tag if the book does not have it yet, and saves (keeping unknown fields).
    public func addTag(_ tag: Tag) {
        guard var book, let id = book.id, !book.tags.contains(tag) else { return }
        book.tags.append(tag)
        do {
            try db.collection("books").document(id).write(book, merge: true)
            self.book = book
            errorMessage = nil
        } catch {
            errorMessage = DocumentProblem(path: "books/\(id)", error: error).message
        }
    }
}

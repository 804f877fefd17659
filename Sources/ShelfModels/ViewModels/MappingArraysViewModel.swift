import DocumentStore
import Observation

/// The guide's "Mapping arrays" screen: a book's genres, with genres to add.
@Observable @MainActor
public final class MappingArraysViewModel {
    public var book: BookWithGenre = .empty
    public var errorMessage: String?
    public let availableGenres = ["Action", "Fantasy", "Fairy Tale"]
    @ObservationIgnored private let db: Firestore

    public init(db: Firestore = .firestore()) {
        self.db = db
    }

    public func fetchBook(documentId: String = "hitchhiker-genre") async {
        switch await SingleDocument.fetch(db.collection("books").document(documentId), as: BookWithGenre.self) {
        case .success(let book):
            self.book = book
            errorMessage = nil
        case .failure(let problem):
            errorMessage = problem.message
        }
    }

    /// Adds the genre if the book does not have it yet, and saves.
    public func addGenre(_ genre: String) {
        guard !book.genres.contains(genre) else { return }
        book.genres.append(genre)
        save()
    }

    /// Saves over the book's document (keeping unknown fields), or adds it when it is new.
    public func save() {
        do {
            if let id = book.id {
                try db.collection("books").document(id).write(book, merge: true)
            } else {
                book.id = try db.collection("books").add(book).documentID
            }
            errorMessage = nil
        } catch {
            errorMessage = DocumentProblem(path: "books/\(book.id ?? "")", error: error).message
        }
    }
}

import DocumentStore
import Observation

/// The guide's "Mapping simple types" screen: fetch a book by id, update it, add one.
@Observable @MainActor
public final class MappingSimpleTypesViewModel {
    public var book: Book = .empty
    public var errorMessage: String?
    @ObservationIgnored private let db: Firestore

    public init(db: Firestore = .firestore()) {
        self.db = db
    }

    public func fetchAndMap() async { await fetchBook(documentId: "hitchhiker") }
    public func fetchAndMapNonExisting() async { await fetchBook(documentId: "does-not-exist") }
    public func fetchAndTryMappingInvalidData() async { await fetchBook(documentId: "invalid-data") }

    /// Reads books/<id> as a `Book`: a missing document or one that does not decode leaves the
    /// book as it was and says why in `errorMessage`.
    public func fetchBook(documentId: String) async {
        switch await SingleDocument.fetch(db.collection("books").document(documentId), as: Book.self) {
        case .success(let book):
            self.book = book
            errorMessage = nil
        case .failure(let problem):
            errorMessage = problem.message
        }
    }

    /// Saves the book over its document, keeping fields `Book` does not know. Only a fetched
    /// (or added) book has an id to save to.
    public func updateBook() {
        guard let id = book.id else {
            errorMessage = "The book has no id yet: fetch or add it first"
            return
        }
        do {
            try db.collection("books").document(id).write(book, merge: true)
            errorMessage = nil
        } catch {
            errorMessage = DocumentProblem(path: "books/\(id)", error: error).message
        }
    }

    /// Adds the book as a new document with an automatic id, and keeps that id.
    public func addBook() {
        do {
            let reference = try db.collection("books").add(book)
            book.id = reference.documentID
            errorMessage = nil
        } catch {
            errorMessage = DocumentProblem(path: "books", error: error).message
        }
    }
}

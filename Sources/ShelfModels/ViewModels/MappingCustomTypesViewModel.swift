import DocumentStore
import Observation

/// The guide's "Mapping custom types" screen: a book whose cover is a nested map of URLs.
@Observable @MainActor
public final class MappingCustomTypesViewModel {
    public var book: BookWithCoverImages?
    public var errorMessage: String?
    @ObservationIgnored private let db: Firestore

    public init(db: Firestore = .firestore()) {
        self.db = db
    }

    public func fetchBook(documentId: String = "hitchhiker-image-urls") async {
        switch await SingleDocument.fetch(db.collection("books").document(documentId), as: BookWithCoverImages.self) {
        case .success(let book):
            self.book = book
            errorMessage = nil
        case .failure(let problem):
            errorMessage = problem.message
        }
    }
}

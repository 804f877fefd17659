import DocumentStore
import Observation

/// The whole `books` collection, live, whatever each document's shape; and the guide's three
/// fetches by id through `MappingSimpleTypesViewModel`.
@Observable @MainActor
public final class BooksViewModel {
    public let live: LiveCollection<ShelfBook>
    public let lookup: MappingSimpleTypesViewModel

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("books"))
        lookup = MappingSimpleTypesViewModel(db: db)
    }

    public var writeError: String? { live.writeError }
    public var errorMessage: String? { writeError ?? live.statusMessage }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }

    /// The document's fields that `ShelfBook` does not map (e.g. hitchhiker's
    /// "field-doesnt-exist-in-struct"), sorted by name.
    public func unknownFields(of row: LiveCollection<ShelfBook>.Row) -> [(name: String, value: Any)] {
        (row.snapshot.data() ?? [:])
            .filter { !ShelfBook.knownFields.contains($0.key) }
            .sorted { $0.key < $1.key }
            .map { (name: $0.key, value: $0.value) }
    }

    @discardableResult
    public func add(_ book: ShelfBook) -> DocumentReference? {
        live.attempt { try live.add(book) }
    }

    /// Saves with a merge, so no field the model does not know is lost.
    /// `removing` names optional fields the user cleared, deleted from the document.
    public func update(_ book: ShelfBook, id: String, removing fields: [String] = []) {
        live.attempt { try live.update(book, id: id, removing: fields) }
    }

    public func delete(id: String) {
        live.attempt { try live.delete(id: id) }
    }
}

import DocumentStore
import Foundation
import ShelfModels

/// Something the app asks of the world beyond its own state, as a value: the model makes it in
/// answer to an action, an `EffectRunner` runs it off the main thread, and its result comes
/// back to the model as an action (`AppAction.effectFinished`). So a key is answered in the
/// next frame whatever the disk or the server is doing.
enum Effect: Sendable {
    /// Changes one document; runs after every write asked for before it, so writes land in the
    /// order they were asked for.
    case write(StoreWrite)
    /// Reads the create and update times of a snapshot's document, for its detail (on a
    /// server, a query); the result names the snapshot, so times read late never go to a newer one.
    case readTimes(DocumentSnapshot)
    /// Lists a document's collections, for `c` (on a server, a call).
    case listCollections(DocumentReference)
    /// Lists the store's collections and the `selected` document's, and tells which `emptied`
    /// ones hold a document again (`CollectionListing`): at start, then once a second. Runs
    /// beside the writes, so a server slow to answer holds up nothing but the tabs it would add.
    case listStoreCollections(Firestore, selected: DocumentReference?, emptied: Set<String>)
    /// Finds whether a collection (path) on a server holds more documents than a list holds
    /// whole (`limit`): one count aggregation, stopped past the limit.
    case sizeCollection(Firestore, String, limit: Int)
    /// `o` on the books tab: the guide's own fetch of a book by id
    /// (`MappingSimpleTypesViewModel.fetchBook`), whose view model keeps what it read.
    case lookUp(MappingSimpleTypesViewModel, id: String)

    /// The guide's fetch is an async call of a main-actor view model: a runner awaits this on
    /// the main actor instead of performing the effect on its queue. Nil for every other effect.
    var mainActorCall: (@MainActor () async -> EffectResult)? {
        guard case .lookUp(let lookup, let id) = self else { return nil }
        return {
            await lookup.fetchBook(documentId: id)
            return .lookedUp(id: id)
        }
    }

    /// Whether it runs beside the writes rather than after them: a look that orders nothing.
    var runsBesideWrites: Bool {
        if case .listStoreCollections = self { return true }
        return false
    }

    /// Does what the effect says, where the runner runs it (never the main thread in the app),
    /// and returns what the model needs to know of it. The guide's fetch is `mainActorCall`'s.
    func perform() -> EffectResult {
        switch self {
        case .write(let write): .written(Result { try write.perform() })
        case .readTimes(let snapshot): .timesRead(snapshot, (try? snapshot.reference.firestore.documentTimes([snapshot.reference.path]))?.first ?? nil)
        case .listCollections(let reference): .collectionsListed(reference, Result { try reference.listCollections().map(\.collectionID) })
        case .listStoreCollections(let store, let selected, let emptied):
            .storeCollectionsListed(CollectionListing(of: store, selected: selected, emptied: emptied))
        case .sizeCollection(let store, let path, let limit):
            .collectionSized(path, isLarge: (try? store.collection(path).limit(to: limit + 1).count.readSnapshot().count.intValue).map { $0 > limit } ?? false)
        case .lookUp(_, let id): .lookedUp(id: id)  // runners call `mainActorCall` instead
        }
    }
}

/// What an effect came to, handed back to the model.
enum EffectResult: Sendable {
    /// A write's change, to record for `u` (nil when it cannot be undone), or why it failed.
    case written(Result<UndoHistory.Change?, any Error>)
    /// The document's times; nil when it has none or they could not be read.
    case timesRead(DocumentSnapshot, DocumentTimes?)
    /// The ids of the document's collections, or why they could not be listed.
    case collectionsListed(DocumentReference, Result<[String], any Error>)
    /// The store's collections, or why they could not be listed.
    case storeCollectionsListed(CollectionListing)
    /// Whether the collection (path) is too large to hold whole (a count that failed says
    /// not: the list then says why it cannot read it).
    case collectionSized(String, isLarge: Bool)
    /// The guide's fetch of this id is done: its view model holds the book or why not.
    case lookedUp(id: String)
}

/// One change to one document, with the reads undo needs around it.
struct StoreWrite: Sendable {
    enum Operation: Sendable {
        /// A form's save.
        case save(FormWrite)
        case delete
        /// `u` or `Ctrl-R`: puts the document back as it was before the change.
        case revert(UndoHistory.Change, evenIfChangedSince: Bool)
    }

    let reference: DocumentReference
    let operation: Operation

    static func save(_ write: FormWrite) -> StoreWrite { StoreWrite(reference: write.reference, operation: .save(write)) }

    /// Writes, and returns the change made as undo keeps it: the document is read just before
    /// (what the write replaces, as it is now: after an overwrite, another program's version)
    /// and just after.
    func perform() throws -> UndoHistory.Change? {
        switch operation {
        case .save(let write):
            let before = write.isNew ? UndoHistory.Before.none : UndoHistory.Before(reading: reference)
            try write.perform()
            return UndoHistory.Change.made(to: reference, before: before)
        case .delete:
            let before = UndoHistory.Before(reading: reference)
            try reference.deleteDocument()
            return UndoHistory.Change.made(to: reference, before: before)
        case .revert(let change, let evenIfChangedSince):
            return try change.revert(evenIfChangedSince: evenIfChangedSince)
        }
    }
}

/// What a form's save writes to its document: made on the main thread from the form's values,
/// written by the effect runner through the store's own calls.
struct FormWrite: Sendable {
    let reference: DocumentReference
    /// A document the save creates (an automatic id): it has nothing before to read for undo.
    let isNew: Bool
    /// A new document's fields, which `named(_:)` writes under another id.
    private var newFields: Fields?
    private let write: @Sendable () throws -> Void

    private init(reference: DocumentReference, isNew: Bool, newFields: Fields? = nil, write: @escaping @Sendable () throws -> Void) {
        self.reference = reference
        self.isNew = isNew
        self.newFields = newFields
        self.write = write
    }

    func perform() throws { try write() }

    /// `model` written over `snapshot`'s document with a merge, so fields the model does not
    /// know stay, and `removing` (optional fields the user cleared) deleted; with no snapshot,
    /// as a new document of `collection` with an automatic id.
    static func model<T: Encodable & Sendable>(_ model: T, over snapshot: DocumentSnapshot?, in collection: CollectionReference,
                                               removing fields: [String] = []) throws -> FormWrite {
        guard let snapshot else { return .fields(try Firestore.Encoder().encode(model), over: nil, in: collection) }
        let reference = snapshot.reference
        guard !fields.isEmpty else { return FormWrite(reference: reference, isNew: false) { try reference.write(model, merge: true) } }
        var data = try Firestore.Encoder().encode(model)
        for field in fields where data[field] == nil { data[field] = FieldValue.delete() }
        return .fields(data, over: snapshot, in: collection, merge: true)
    }

    /// These fields written to `snapshot`'s document (the whole document unless `merge`), or
    /// as a new document of `collection` with an automatic id.
    static func fields(_ fields: [String: Any], over snapshot: DocumentSnapshot?, in collection: CollectionReference,
                       merge: Bool = false) -> FormWrite {
        let fields = Fields(values: fields)
        let reference = snapshot?.reference ?? collection.document()
        return FormWrite(reference: reference, isNew: snapshot == nil, newFields: snapshot == nil ? fields : nil) {
            try reference.write(fields.values, merge: merge)
        }
    }

    /// The new document this write adds, under the id chosen in its form instead of an
    /// automatic one: added only if no document has that id (checked in a transaction, so
    /// one written meanwhile is not overwritten either).
    func named(_ id: String) -> FormWrite {
        guard isNew, let fields = newFields else { return self }
        let reference = reference.parent.document(id)
        return FormWrite(reference: reference, isNew: true) {
            try reference.firestore.runTransactionNow { transaction in
                guard try !transaction.getDocument(reference).exists else {
                    throw FirestoreErrorCode(.alreadyExists, "\(reference.path) already exists: choose another id, or edit that document")
                }
                transaction.setData(fields.values, forDocument: reference)
            }
        }
    }

    /// A document's fields as the encoder or the JSON reader made them: values never changed
    /// after, so they cross to the runner's thread as they are.
    private struct Fields: @unchecked Sendable { let values: [String: Any] }
}

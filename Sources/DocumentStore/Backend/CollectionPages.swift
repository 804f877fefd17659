/// A collection read a page at a time, in the order of its ids, each document once: how
/// `shelf export` copies a collection of any size in the memory of a page, reading the next
/// page while it writes one. `next()` is called by one thread at a time.
package protocol CollectionPages: AnyObject, Sendable {
    /// How many documents there were when the reading began (a server's count, a folder's
    /// listing): for progress, not a promise, as others may write meanwhile.
    var count: Int { get }
    /// The next page, in id order; empty at the end.
    func next() throws -> [QueryDocumentSnapshot]
}

extension CollectionReference {
    /// The collection's documents in pages of `size` (`CollectionPages`), as its storage reads
    /// them best: a folder lists its files once, a server answers a query a page.
    package func pages(size: Int) throws -> any CollectionPages {
        precondition(size > 0, "a page holds at least one document")
        do { return try firestore.fileStorage?.pages(of: self, size: size) ?? QueryPages(of: self, size: size) } catch { throw publicError(error) }
    }
}

/// The pages of a collection as queries ordered by id, each starting after the last document
/// of the one before, so a server reads each page by its index.
final class QueryPages: CollectionPages, @unchecked Sendable {
    let count: Int
    private let byID: Query
    private let size: Int
    /// Only `next()` touches these, on one thread at a time.
    private var last: QueryDocumentSnapshot?
    private var ended = false

    init(of collection: CollectionReference, size: Int) throws {
        count = try collection.count.readSnapshot().count.intValue
        byID = collection.order(by: FieldPath.documentID())
        self.size = size
    }

    func next() throws -> [QueryDocumentSnapshot] {
        guard !ended else { return [] }
        let page = try (last.map { byID.start(afterDocument: $0) } ?? byID).limit(to: size).readSnapshot().documents
        last = page.last
        ended = page.count < size
        return page
    }
}

/// A whole store copied into another, every collection at every depth, in batches of 500 (one
/// durability barrier each), losing no type: integers stay integers, timestamps, bytes,
/// GeoPoints and references stay what they are (references re-pointed at the destination), and
/// each document keeps its create and update times (`shelf export`). A document that cannot be
/// read, or that the destination refuses (a map nested deeper than Firestore's 20 levels, which
/// a store reads up to 100), is named and left out; the copy goes on.
package struct StoreCopy {
    /// What the copy tells as it goes.
    package enum Event {
        /// `read` of `total` documents of the collection at `path` read (more than counted: full).
        case progress(path: String, read: Int, total: Int)
        /// The collection at `path` is copied, `read` documents read.
        case finished(path: String, read: Int)
        /// A document left out: it could not be read, or the destination refused it.
        case leftOut(path: String, reason: LeftOut, error: Error)
    }

    package enum LeftOut { case unreadable, refused }

    /// Firestore's largest batch: one durability barrier per 500 documents.
    package static let batchSize = 500

    let destination: Firestore
    private let report: (Event) -> Void
    package private(set) var copied = 0
    package private(set) var collections = 0
    package private(set) var unreadable: [String] = []
    /// Documents read but refused by the destination's write limits.
    package private(set) var refused: [String] = []

    package init(into destination: Firestore, report: @escaping (Event) -> Void = { _ in }) {
        self.destination = destination
        self.report = report
    }

    /// Copies every collection of `source`.
    package mutating func copy(from source: Firestore) throws {
        for collection in try source.listCollections() { try copy(collection) }
    }

    /// Copies the collection a batch at a time, each next batch read (its documents, their
    /// times, their values rebased) while one is written, so a collection of any size is
    /// copied in the memory of two batches; then the collections below its documents (also
    /// under documents that do not exist themselves).
    package mutating func copy(_ collection: CollectionReference) throws {
        collections += 1
        let pages = try collection.pages(size: Self.batchSize)
        let destination = destination
        var read = 0
        try BatchPipeline.run(make: { _ -> ReadPage? in
            let page = try pages.next()
            guard !page.isEmpty else { return nil }
            let readable = page.filter { $0.readError == nil }
            let batch = readable.isEmpty ? nil : try Self.batch(of: readable, into: destination)
            batch?.prepare()
            return ReadPage(documents: page, readable: readable, batch: batch)
        }, write: { page, _ in
            for document in page.documents {
                guard let error = document.readError else { continue }
                unreadable.append(document.reference.path)
                report(.leftOut(path: document.reference.path, reason: .unreadable, error: error))
            }
            if let batch = page.batch { try commit(page.readable, batch) }
            read += page.documents.count
            report(.progress(path: collection.path, read: read, total: max(pages.count, read)))
        })
        report(.finished(path: collection.path, read: read))
        for subcollection in try collection.subcollections() { try copy(subcollection) }
    }

    /// A page of the source, and the batch that writes those of its documents that could be read.
    private struct ReadPage: Sendable {
        let documents: [QueryDocumentSnapshot]
        let readable: [QueryDocumentSnapshot]
        let batch: WriteBatch?
    }

    /// The documents as one batch of the destination, each keeping its times.
    private static func batch(of documents: [QueryDocumentSnapshot], into destination: Firestore) throws -> WriteBatch {
        let batch = destination.batch()
        let times = try documents[0].reference.firestore.documentTimes(documents.map(\.reference.path))
        for (document, times) in zip(documents, times) {
            batch.setData(copying: document, forDocument: destination.document(document.reference.path), keepingTimes: times)
        }
        return batch
    }

    /// Writes the documents in one batch. When the batch is refused for what a document holds,
    /// each is written alone, and those refused are named and left out.
    private mutating func commit(_ documents: [QueryDocumentSnapshot], _ batch: WriteBatch) throws {
        do {
            try batch.commitNow()
            copied += documents.count
        } catch let error as FirestoreErrorCode where error.code == .invalidArgument {
            guard documents.count == 1, let document = documents.first else {
                for document in documents { try commit([document], Self.batch(of: [document], into: destination)) }
                return
            }
            refused.append(document.reference.path)
            report(.leftOut(path: document.reference.path, reason: .refused, error: error))
        }
    }
}

import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels

/// `shelf export`: copies a whole store, every collection at every depth, into an empty one,
/// in batches of 500 (one durability barrier each), losing no type: integers stay integers,
/// timestamps, bytes, GeoPoints and references stay what they are (references re-pointed at
/// the new store), and each document keeps its create and update times.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy every document of the data folder (or server) into another, empty, one.",
        discussion: """
            Documents that cannot be read, or that a store cannot write (maps nested deeper than \
            20 levels), are named and left out (exit status 1); everything else is copied. The \
            destination is created if its parent exists; one that already holds collections, or \
            that is inside the source or holds it, is refused, so nothing there is overwritten.
            """)

    @OptionGroup var options: DataOptions

    @Option(name: .long, help: ArgumentHelp("The destination: a new or empty folder, a postgresql:// URL of an empty database, or a firestore:// URL of an empty database on a Firestore server.", valueName: "dir-or-url"))
    var to: String

    func run() throws {
        let sourceLocation = try options.location()
        try DataLocation.refuseOverlap(of: sourceLocation, "--data", with: to, "--to")
        let destinationLocation = try DataLocation.given(to, option: "--to", creatingMissing: true)
        let source = try sourceLocation.openStore()
        let destination = try destinationLocation.openOtherStore()
        let existing = try destination.listCollections().map(\.collectionID)
        guard existing.isEmpty else {
            throw DataLocation.Problem(description: PrintableText.safe(
                "\(destinationLocation.displayName) already holds collections (\(existing.joined(separator: ", "))): export into a new or empty folder"))
        }
        var export = StoreExport(destination: destination, readsInPages: sourceLocation.isServer)
        let started = Date()
        do {
            for collection in try source.listCollections() { try export.copy(collection) }
        } catch {
            throw DataLocation.Problem(description: PrintableText.safe("\(error)")
                + "\n\(export.copied.formatted()) document\(export.copied == 1 ? " was" : "s were") copied before this; \(destinationLocation.displayName) holds that partial copy")
        }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        let leftOut = [(export.unreadable.count, "read"), (export.refused.count, "copied")].filter { $0.0 > 0 }
            .map { "; \($0.0) could not be \($0.1) and \($0.0 == 1 ? "was" : "were") left out" }
        print("exported \(export.copied.formatted()) document\(export.copied == 1 ? "" : "s") in \(export.collections) collection\(export.collections == 1 ? "" : "s") "
            + "from \(sourceLocation.displayName) to \(destinationLocation.displayName) in \(seconds) s" + leftOut.joined())
        if !leftOut.isEmpty { throw ExitCode(1) }
    }
}

/// The walk: each collection's documents in batches, then the collections under each of its
/// documents (also under documents that do not exist themselves).
struct StoreExport {
    let destination: Firestore
    /// Firestore's largest batch: one durability barrier per 500 documents.
    static let batchSize = GenerateCommand.batchSize
    private(set) var copied = 0
    private(set) var collections = 0
    private(set) var unreadable: [String] = []
    /// Documents read but refused by the destination's write limits.
    private(set) var refused: [String] = []
    private let progress = ProgressLine()
    /// A server's collection is read a page at a time, in id order, so that one of any size is
    /// copied in the memory of a page; a folder's whole (each query of a folder reads every file).
    private let readsInPages: Bool
    static let pageSize = 10_000

    init(destination: Firestore, readsInPages: Bool) {
        self.destination = destination
        self.readsInPages = readsInPages
    }

    mutating func copy(_ collection: CollectionReference) throws {
        collections += 1
        let total = readsInPages ? try waitFor { try await collection.count.getAggregation(source: .server) }.count.intValue : nil
        var read = 0, last: QueryDocumentSnapshot?
        repeat {
            let byID = collection.order(by: FieldPath.documentID())
            let query = !readsInPages ? collection : (last.map { byID.start(afterDocument: $0) } ?? byID).limit(to: Self.pageSize)
            let page = try waitFor { try await query.getDocuments() }.documents
            try copy(page, of: collection, after: read, of: total ?? page.count)
            read += page.count
            last = page.last
        } while readsInPages && last != nil && read % Self.pageSize == 0
        progress.finish(collection.path, read)
        for subcollection in try collection.subcollections() { try copy(subcollection) }
    }

    /// Copies one page of the collection's documents, `done` of `total` read before it.
    private mutating func copy(_ documents: [QueryDocumentSnapshot], of collection: CollectionReference, after done: Int, of total: Int) throws {
        var readable: [QueryDocumentSnapshot] = []
        for document in documents {
            guard let error = document.readError else { readable.append(document); continue }
            unreadable.append(document.reference.path)
            progress.interrupt(with: PrintableText.safe("\(document.reference.path): cannot be read, left out: \(error)"))
        }
        // Each next batch (the documents' times read, their values rebased) made while one is written.
        let destination = destination
        let batchSize = Self.batchSize
        try BatchPipeline.run(count: (readable.count + batchSize - 1) / batchSize, make: { [readable] number in
            let documents = Array(readable[(number * batchSize)..<min((number + 1) * batchSize, readable.count)])
            return (documents, try Self.batch(of: documents, into: destination))
        }, write: { made, number in
            try commit(made.0, made.1)
            progress.show(collection.path, done + min((number + 1) * batchSize, readable.count), of: max(total, done + documents.count))
        })
    }

    /// The documents as one batch of the destination, each keeping its times.
    private static func batch(of documents: [QueryDocumentSnapshot], into destination: Firestore) throws -> WriteBatch {
        let batch = destination.batch()
        let times = try documents[0].reference.firestore.documentTimes(documents.map(\.reference.path))
        for (document, times) in zip(documents, times) {
            batch.setData(document.data().mapValues { rebased($0, to: destination) }, forDocument: destination.document(document.reference.path),
                          keepingTimes: times)
        }
        return batch
    }

    /// Writes the documents in one batch. The store reads what it would refuse to write (maps
    /// nested deeper than Firestore's 20 levels, which it reads up to 100): when the batch is
    /// refused so, each document is written alone, and those refused are named and left out.
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
            progress.interrupt(with: PrintableText.safe("\(document.reference.path): cannot be copied, left out: \(error)"))
        }
    }

    /// A value as the destination store takes it: references name documents of that store.
    static func rebased(_ value: Any, to store: Firestore) -> Any {
        switch value {
        case let reference as DocumentReference: return store.document(reference.path)
        case let array as [Any]: return array.map { rebased($0, to: store) }
        case let map as [String: Any]: return map.mapValues { rebased($0, to: store) }
        default: return value
        }
    }
}

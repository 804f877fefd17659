import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels
import TerminalUI

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
        var export = StoreExport(destination: destination)
        let started = Date()
        do {
            for collection in try source.listCollections() { try export.copy(collection) }
        } catch {
            throw DataLocation.Problem(description: PrintableText.safe("\(error)")
                + "\n\(export.copied.thousandsSeparated) document\(export.copied == 1 ? " was" : "s were") copied before this; \(destinationLocation.displayName) holds that partial copy")
        }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        let leftOut = [(export.unreadable.count, "read"), (export.refused.count, "copied")].filter { $0.0 > 0 }
            .map { "; \($0.0) could not be \($0.1) and \($0.0 == 1 ? "was" : "were") left out" }
        print("exported \(export.copied.thousandsSeparated) document\(export.copied == 1 ? "" : "s") in \(export.collections) collection\(export.collections == 1 ? "" : "s") "
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

    init(destination: Firestore) {
        self.destination = destination
    }

    /// Copies the collection a batch at a time, each next batch read (its documents, their
    /// times, their values rebased) while one is written, so a collection of any size is
    /// copied in the memory of two batches; then the collections below its documents.
    mutating func copy(_ collection: CollectionReference) throws {
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
                progress.interrupt(with: PrintableText.safe("\(document.reference.path): cannot be read, left out: \(error)"))
            }
            if let batch = page.batch { try commit(page.readable, batch) }
            read += page.documents.count
            progress.show(collection.path, read, of: max(pages.count, read))
        })
        progress.finish(collection.path, read)
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
}

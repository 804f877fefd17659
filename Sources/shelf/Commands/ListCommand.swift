import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels

/// `shelf list`: the collections and their document ids, for scripts and a quick look.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the collections of the data folder (subcollections by their path, after their parent) and their documents.")

    @OptionGroup var options: DataOptions

    /// A collection that cannot be read is said and skipped (exit status 1), the others listed.
    /// Names and errors are printed with control characters escaped and long ones shortened.
    func run() throws {
        let store = try options.location().openStore()
        let removed = store.sweepStrayTemporaryFiles()
        var failed = false
        for collection in try store.listCollections() { list(collection, failed: &failed) }
        if let line = DataCheck.strayFilesLine(removed) { print(PrintableText.safe(line)) }
        if failed { throw ExitCode(1) }
    }

    /// The collection's ids, then its subcollections'.
    private func list(_ collection: CollectionReference, failed: inout Bool) {
        let snapshot: QuerySnapshot
        let subcollections: [CollectionReference]
        do {
            snapshot = try waitFor { try await collection.getDocuments() }
            subcollections = try collection.subcollections()
        } catch {
            failed = true
            print(PrintableText.safe("\(collection.path): cannot be read: \(error)"))
            return
        }
        let files = snapshot.count == 0 ? (try? collection.otherFileCount()) ?? 0 : 0
        let otherFiles = files == 0 ? "" : ", \(files) other file\(files == 1 ? "" : "s"): only *.json files are documents"
        print(PrintableText.safe("\(collection.path) (\(snapshot.count) document\(snapshot.count == 1 ? "" : "s")\(otherFiles))"))
        for document in snapshot.documents {
            let note = document.readError.map { "  ! \($0)" } ?? ""
            print(PrintableText.safe("  \(document.documentID)\(note)"))
        }
        for subcollection in subcollections { list(subcollection, failed: &failed) }
    }
}

import ArgumentParser
import DocumentStore
import Foundation

/// `shelf list`: the collections and their document ids, for scripts and a quick look.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the collections of the data folder and their documents.")

    @OptionGroup var options: DataOptions

    /// A collection that cannot be read is said and skipped (exit status 1), the others listed.
    /// Names and errors are printed with control characters escaped and long ones shortened.
    func run() throws {
        let store = try options.location().openStore()
        var failed = false
        for collection in try store.listCollections() {
            let snapshot: QuerySnapshot
            do {
                snapshot = try waitFor { try await collection.getDocuments() }
            } catch {
                failed = true
                print(PrintableText.safe("\(collection.path): cannot be read: \(error)"))
                continue
            }
            print(PrintableText.safe("\(collection.path) (\(snapshot.count) document\(snapshot.count == 1 ? "" : "s"))"))
            for document in snapshot.documents {
                let note = document.readError.map { "  ! \($0)" } ?? ""
                print(PrintableText.safe("  \(document.documentID)\(note)"))
            }
        }
        if failed { throw ExitCode(1) }
    }
}

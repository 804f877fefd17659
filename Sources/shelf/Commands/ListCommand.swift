import ArgumentParser
import DocumentStore
import Foundation

/// `shelf list`: the collections and their document ids, for scripts and a quick look.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the collections of the data folder and their documents.")

    @OptionGroup var options: DataOptions

    func run() throws {
        let store = try options.folder().openStore()
        for collection in try store.listCollections() {
            let snapshot = try waitFor { try await collection.getDocuments() }
            print("\(collection.path) (\(snapshot.count) document\(snapshot.count == 1 ? "" : "s"))")
            for document in snapshot.documents {
                let note = document.readError.map { "  ! \($0)" } ?? ""
                print("  \(document.documentID)\(note)")
            }
        }
    }
}

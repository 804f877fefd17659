import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels

/// `shelf generate`: a large synthetic `books` collection, for benchmarks (so nobody commits
/// huge data).
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write COUNT synthetic books into the books collection of the --data folder.",
        discussion: """
            --data is required (never your own library by default); a missing folder is created \
            if its parent exists. Books are numbered generated-0000000, generated-0000001, ...; \
            run again, the numbers go on after the generated books already there, so no \
            document is overwritten.
            """)

    @OptionGroup var options: DataOptions

    @Option(parsing: .unconditional, help: "How many books to write.")
    var count: Int = 10_000

    func validate() throws {
        guard options.data != nil else { throw ValidationError("generate needs --data <dir>: the folder to write the books into") }
        guard count > 0 else { throw ValidationError("--count must be at least 1, got \(count)") }
    }

    func run() throws {
        let location = try options.location(creatingMissing: true)
        let books = try location.openStore().collection("books")
        let start = Date()
        let count = count
        let progress = ProgressLine()
        var reported = 0
        let (first, before) = try GeneratedBooks.write(count, into: books) { written in
            progress.show(books.path, written, of: count)
            // Off a terminal (a script, a log), a line every 10,000 instead of the bar.
            guard !progress.isTerminal else { return }
            for line in stride(from: (reported / 10_000 + 1) * 10_000, through: written, by: 10_000) { print("\(line) books written") }
            reported = written
        }
        progress.clear()
        let after = before.map { ", after \(GeneratedBooks.id($0)), already there" } ?? ""
        print("wrote \(count) book\(count == 1 ? "" : "s") (\(GeneratedBooks.id(first)) to \(GeneratedBooks.id(first + count - 1))\(after)) "
            + "to \(location.displayName)/\(books.path) in \(Self.seconds(Date().timeIntervalSince(start)))")
        if location.isServer {
            try GeneratedBooks.makeOrdersReady(of: books) { field, seconds in print("ordered by \(field) in \(Self.seconds(seconds))") }
        }
    }

    private static func seconds(_ seconds: TimeInterval) -> String { String(format: "%.1f s", seconds) }
}

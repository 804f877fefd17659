import ArgumentParser
import DocumentStore
import Foundation
import ShelfModels

/// `shelf generate`: a large synthetic `books` collection, for benchmarks (so nobody commits
/// huge data).
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write COUNT synthetic books into the data folder's books collection.")

    @OptionGroup var options: DataOptions

    static let batchSize = 500

    @Option(help: "How many books to write.")
    var count: Int = 10_000

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1, got \(count)") }
    }

    func run() throws {
        let store = try options.location().openStore()
        let books = store.collection("books")
        let start = Date()
        // Firestore's largest batch: one commit (one durability barrier) per 500 books.
        for first in stride(from: 0, to: count, by: Self.batchSize) {
            let end = min(first + Self.batchSize, count)
            let batch = store.batch()
            for index in first..<end {
                try batch.setData(from: SyntheticBooks.book(index), forDocument: books.document(String(format: "generated-%07d", index)))
            }
            try batch.commitNow()
            for written in stride(from: (first / 10_000 + 1) * 10_000, through: end, by: 10_000) { print("\(written) books written") }
        }
        print("wrote \(count) books to \(books.path) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
    }
}

/// Varied, plausible books made from a number, the same every run.
enum SyntheticBooks {
    static let adjectives = ["Silent", "Crimson", "Hidden", "Last", "Broken", "Golden", "Distant", "Winter", "Hollow", "Burning"]
    static let nouns = ["River", "Empire", "Garden", "Signal", "Harbour", "Machine", "Library", "Orchard", "Comet", "Lantern"]
    static let authors = ["Ada Lindqvist", "Tomás Ferreira", "Mei Tanaka", "Olu Adeyemi", "Priya Raman", "Jonas Weber", "Sofia Marino", "Liam O'Connor"]
    static let genres = ["Sci-Fi", "Fantasy", "Mystery", "History", "Comedy", "Romance", "Horror", "Poetry"]

    static func book(_ index: Int) -> ShelfBook {
        ShelfBook(
            title: "The \(adjectives[index % 10]) \(nouns[(index / 10) % 10]) \(index / 100 + 1)",
            numberOfPages: 80 + (index * 37) % 900,
            author: authors[index % authors.count],
            genres: genrePair(index).map { genres[$0] })
    }

    /// Two different genres: the second moves on by one where it would repeat the first.
    static func genrePair(_ index: Int) -> [Int] {
        let first = index % genres.count
        let second = (index / 8) % genres.count
        return [first, second == first ? (second + 1) % genres.count : second]
    }
}

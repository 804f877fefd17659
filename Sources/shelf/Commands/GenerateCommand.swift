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

    static let batchSize = 500
    static let idPrefix = "generated-"

    @Option(parsing: .unconditional, help: "How many books to write.")
    var count: Int = 10_000

    func validate() throws {
        guard options.data != nil else { throw ValidationError("generate needs --data <dir>: the folder to write the books into") }
        guard count > 0 else { throw ValidationError("--count must be at least 1, got \(count)") }
    }

    func run() throws {
        let location = try options.location(creatingMissing: true)
        let store = try location.openStore()
        let books = store.collection("books")
        // After the highest generated number there, so nothing is overwritten.
        let last = try lastGeneratedNumber(in: books)
        let first = last.map { $0 + 1 } ?? 0
        let start = Date()
        // Firestore's largest batch: one commit (one durability barrier) per 500 books, each
        // next batch's books made while one is written.
        let count = count
        let progress = ProgressLine()
        try BatchPipeline.run(make: { number -> WriteBatch? in
            guard number * Self.batchSize < count else { return nil }
            let batch = store.batch()
            for index in (first + number * Self.batchSize)..<(first + min((number + 1) * Self.batchSize, count)) {
                try batch.setData(from: SyntheticBooks.book(index), forDocument: books.document(Self.id(index)))
            }
            batch.prepare()
            return batch
        }, write: { batch, number in
            try batch.commitNow()
            let offset = number * Self.batchSize, end = min(offset + Self.batchSize, count)
            progress.show(books.path, end, of: count)
            // Off a terminal (a script, a log), a line every 10,000 instead of the bar.
            guard !progress.isTerminal else { return }
            for written in stride(from: (offset / 10_000 + 1) * 10_000, through: end, by: 10_000) { print("\(written) books written") }
        })
        progress.clear()
        let after = last.map { ", after \(Self.id($0)), already there" } ?? ""
        print("wrote \(count) book\(count == 1 ? "" : "s") (\(Self.id(first)) to \(Self.id(first + count - 1))\(after)) "
            + "to \(location.displayName)/\(books.path) in \(Self.seconds(since: start))")
        if location.isServer { try makeOrdersReady(of: books) }
    }

    /// The highest generated number among the books: the last generated id in byte order, one
    /// read (a server's index; listing ten million ids took more than a minute). Past
    /// 9,999,999 numbers have more digits and no longer sort as ids do (there are such numbers
    /// when `generated-10000000` is there), and an id such as `generated-7b` is no number:
    /// then every id is listed.
    private func lastGeneratedNumber(in books: CollectionReference) throws -> Int? {
        func number(_ id: String) -> Int? { id.hasPrefix(Self.idPrefix) ? Int(id.dropFirst(Self.idPrefix.count)) : nil }
        let numbered = books.whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: Self.idPrefix + "0")
            .whereField(FieldPath.documentID(), isLessThan: Self.idPrefix + ":")  // ":" follows "9"
        guard let last = try waitFor({ try await numbered.order(by: FieldPath.documentID(), descending: true).limit(to: 1).getDocuments() })
            .documents.first?.documentID else { return nil }
        let longer = books.document(Self.id(Self.firstLongerNumber))
        // Numbers past seven digits are written after 10,000,000, so without it there are none.
        if let found = number(last), !(try waitFor { try await longer.getDocument() }.exists) { return found }
        return try books.listDocuments().compactMap { number($0.documentID) }.max()
    }

    /// The first number with more digits than ids are padded to.
    static let firstLongerNumber = 10_000_000

    /// On a server, the order of each field a book may have is made ready now, as Firestore
    /// keeps an index of every field: reading the first book in that order has the server build
    /// its index (once, at the end of a bulk load rather than row by row), so the first list
    /// sorted by it need not wait, nor start a build beside its first rows. Fields the books
    /// written leave out (tags) too: their indexes, of the books that have them, are small. A
    /// folder sorts what it reads: nothing to make.
    private func makeOrdersReady(of books: CollectionReference) throws {
        for field in ShelfBook.knownFields.sorted() {
            let start = Date()
            _ = try waitFor { try await books.order(by: field).limit(to: 1).getDocuments() }
            print("ordered by \(field) in \(Self.seconds(since: start))")
        }
    }

    private static func seconds(since start: Date) -> String { String(format: "%.1f s", Date().timeIntervalSince(start)) }

    /// The number padded to seven digits (without `String(format:)`, a tenth of the time of
    /// making a book).
    static func id(_ index: Int) -> String {
        let digits = String(index)
        return idPrefix + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
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

import DocumentStore
import Foundation

/// Synthetic books for benchmarks (`shelf generate`, so nobody commits huge data): varied,
/// plausible, the same every run, numbered `generated-0000000`, `generated-0000001`, … after the
/// generated books already there, so a second run never overwrites a document.
public enum GeneratedBooks {
    /// Firestore's largest batch: one commit (one durability barrier) per 500 books.
    package static let batchSize = 500
    package static let idPrefix = "generated-"
    /// The first number with more digits than ids are padded to.
    package static let firstLongerNumber = 10_000_000

    /// Writes `count` books into `books` after the highest generated number there, a batch at a
    /// time, each next batch made while one is written; `written` is told each batch's end
    /// (books written so far). Returns the first number written and the highest one there
    /// before (nil: none).
    @discardableResult
    package static func write(_ count: Int, into books: CollectionReference,
                              written: (Int) -> Void = { _ in }) throws -> (first: Int, before: Int?) {
        let before = try lastNumber(in: books)
        let first = before.map { $0 + 1 } ?? 0
        let store = books.firestore
        try BatchPipeline.run(make: { number -> WriteBatch? in
            guard number * batchSize < count else { return nil }
            let batch = store.batch()
            for index in (first + number * batchSize)..<(first + min((number + 1) * batchSize, count)) {
                try batch.setData(from: book(index), forDocument: books.document(id(index)))
            }
            batch.prepare()
            return batch
        }, write: { batch, number in
            try batch.commitNow()
            written(min((number + 1) * batchSize, count))
        })
        return (first, before)
    }

    /// The highest generated number among the books: the last generated id in byte order, one
    /// read (a server's index; listing ten million ids took more than a minute). Past
    /// 9,999,999 numbers have more digits and no longer sort as ids do (there are such numbers
    /// when `generated-10000000` is there), and an id such as `generated-7b` is no number:
    /// then every id is listed.
    package static func lastNumber(in books: CollectionReference) throws -> Int? {
        func number(_ id: String) -> Int? { id.hasPrefix(idPrefix) ? Int(id.dropFirst(idPrefix.count)) : nil }
        let numbered = books.whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: idPrefix + "0")
            .whereField(FieldPath.documentID(), isLessThan: idPrefix + ":")  // ":" follows "9"
        guard let last = try numbered.order(by: FieldPath.documentID(), descending: true).limit(to: 1).readSnapshot()
            .documents.first?.documentID else { return nil }
        // Numbers past seven digits are written after 10,000,000, so without it there are none.
        if let found = number(last), !(try books.document(id(firstLongerNumber)).readDocument().exists) { return found }
        return try books.listDocuments().compactMap { number($0.documentID) }.max()
    }

    /// On a server, the order of each field a book may have is made ready now, as Firestore
    /// keeps an index of every field: reading the first book in that order has the server build
    /// its index (once, at the end of a bulk load rather than row by row), so the first list
    /// sorted by it need not wait, nor start a build beside its first rows. Fields the books
    /// written leave out (tags) too: their indexes, of the books that have them, are small. A
    /// folder sorts what it reads: nothing to make. `ready` is told each field and its seconds.
    package static func makeOrdersReady(of books: CollectionReference, ready: (String, TimeInterval) -> Void) throws {
        for field in ShelfBook.knownFields.sorted() {
            let start = Date()
            _ = try books.order(by: field).limit(to: 1).readSnapshot()
            ready(field, Date().timeIntervalSince(start))
        }
    }

    /// The number padded to seven digits (without `String(format:)`, a tenth of the time of
    /// making a book).
    package static func id(_ index: Int) -> String {
        let digits = String(index)
        return idPrefix + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    static let adjectives = ["Silent", "Crimson", "Hidden", "Last", "Broken", "Golden", "Distant", "Winter", "Hollow", "Burning"]
    static let nouns = ["River", "Empire", "Garden", "Signal", "Harbour", "Machine", "Library", "Orchard", "Comet", "Lantern"]
    static let authors = ["Ada Lindqvist", "Tomás Ferreira", "Mei Tanaka", "Olu Adeyemi", "Priya Raman", "Jonas Weber", "Sofia Marino", "Liam O'Connor"]
    static let genres = ["Sci-Fi", "Fantasy", "Mystery", "History", "Comedy", "Romance", "Horror", "Poetry"]

    /// The book numbered `index`.
    package static func book(_ index: Int) -> ShelfBook {
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

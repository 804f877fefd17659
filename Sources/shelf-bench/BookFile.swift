import Foundation

/// A book's file as another program would write it: Foundation's JSON, not the store's
/// writer, since the point is files the store did not make. Used for external edits and to
/// seed large collections in bulk; `Benchmark.checkSeedFormat` checks the store reads it back
/// as the same document before it is trusted.
enum BookFile {
    static func bytes(_ book: Book) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Its fields without the @DocumentID (which, as Firebase's, only Firestore.Encoder
        // encodes). They always encode: strings, an integer and an array of strings.
        let fields = Fields(title: book.title, author: book.author, numberOfPages: book.numberOfPages, genres: book.genres)
        return Array(try! encoder.encode(fields)) + [0x0A]
    }

    private struct Fields: Encodable {
        var title: String
        var author: String
        var numberOfPages: Int
        var genres: [String]
    }

    /// Writes the books straight into `folder` as `<id>.json` with plain writes (no temp file,
    /// no fsync per file), then one `syncfs` so their write-back does not leak into later
    /// figures. Seeding, not a write figure: the store's own writes are measured separately.
    static func seed(_ books: ArraySlice<(id: String, book: Book)>, into folder: String) throws {
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw BenchError("cannot open \(folder): \(String(cString: strerror(errno)))") }
        defer { close(dirFD) }
        for (id, book) in books {
            try write(bytes(book), to: id + ".json", in: dirFD)
        }
        // syncfs is glibc's and not in the Glibc module: looked up at run time, sync() if absent.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
            typealias SyncFS = @convention(c) (Int32) -> Int32
            guard unsafeBitCast(symbol, to: SyncFS.self)(dirFD) == 0 else {
                throw BenchError("syncfs \(folder): \(String(cString: strerror(errno)))")
            }
        } else {
            sync()
        }
    }

    /// Creates or truncates `name` in the folder and writes `bytes`; no fsync, as a script would.
    static func write(_ bytes: [UInt8], to name: String, in dirFD: Int32) throws {
        let fd = openat(dirFD, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchError("cannot create \(name): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw BenchError("cannot write \(name): \(String(cString: strerror(errno)))") }
            written += n
        }
    }
}

/// A failure that stops the benchmark, with what went wrong.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

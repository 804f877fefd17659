import Foundation

/// A book's file as the store writes it: pretty JSON, two-space indent, sorted keys, final
/// newline. Used to seed large collections in bulk; checked byte for byte against files the
/// store wrote (`Benchmark.checkSeedFormat`) before it is trusted.
enum BookFile {
    static func bytes(_ book: Book) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(192)
        out.append(contentsOf: "{\n  \"author\": ".utf8)
        appendString(book.author, to: &out)
        out.append(contentsOf: ",\n  \"genres\": ".utf8)
        if book.genres.isEmpty {
            out.append(contentsOf: "[]".utf8)
        } else {
            out.append(contentsOf: "[".utf8)
            for (index, genre) in book.genres.enumerated() {
                out.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                appendString(genre, to: &out)
            }
            out.append(contentsOf: "\n  ]".utf8)
        }
        out.append(contentsOf: ",\n  \"numberOfPages\": \(book.numberOfPages),\n  \"title\": ".utf8)
        appendString(book.title, to: &out)
        out.append(contentsOf: "\n}\n".utf8)
        return out
    }

    private static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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

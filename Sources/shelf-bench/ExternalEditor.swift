import Foundation

/// Changes a collection's files behind the store's back, as another program would: a script
/// that writes a temp file and renames it, an editor that rewrites a file in place, `rm`.
/// Each call returns the moment just before its last system call (the one that makes the change
/// visible), so a delay measured from it is never short of the truth.
struct ExternalEditor {
    let folder: String

    /// A new document: `<id>.json.tmp` written, then renamed to `<id>.json`.
    func create(_ id: String, _ book: Book) throws -> ContinuousClock.Instant {
        try writeAndRename(id, book)
    }

    /// An existing document replaced by a new file (new inode) renamed over it.
    func replace(_ id: String, _ book: Book) throws -> ContinuousClock.Instant {
        try writeAndRename(id, book)
    }

    /// The digits of `numberOfPages` overwritten in place: same inode, same size, new content.
    func editInPlace(_ id: String) throws -> ContinuousClock.Instant {
        let path = folder + "/" + id + ".json"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // `"numberOfPages": 12` as the store writes it, `"numberOfPages" : 12` as Foundation does.
        let key = Array("\"numberOfPages\"".utf8)
        guard var start = bytes.indices.first(where: { bytes[$0...].starts(with: key) }).map({ $0 + key.count }) else {
            throw BenchError("\(path) has no numberOfPages to edit")
        }
        let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        while start < bytes.endIndex, blanks.contains(bytes[start]) { start += 1 }
        guard start < bytes.endIndex, bytes[start] == UInt8(ascii: ":") else { throw BenchError("\(path): no ':' after numberOfPages") }
        start += 1
        while start < bytes.endIndex, blanks.contains(bytes[start]) { start += 1 }
        let end = bytes[start...].firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? bytes.endIndex
        guard end > start else { throw BenchError("\(path): numberOfPages is not a number") }
        // The same number of digits, another value: 1 -> 2, ..., 9 -> 1 on the last digit keeps the width.
        var digits = Array(bytes[start..<end])
        digits[digits.count - 1] = digits.last! == UInt8(ascii: "9") ? UInt8(ascii: "1") : digits.last! + 1
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let at = ContinuousClock.now
        let n = digits.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(start)) }
        guard n == digits.count else { throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))") }
        return at
    }

    /// A document's file removed.
    func delete(_ id: String) throws -> ContinuousClock.Instant {
        let at = ContinuousClock.now
        guard unlink(folder + "/" + id + ".json") == 0 else {
            throw BenchError("cannot delete \(id).json: \(String(cString: strerror(errno)))")
        }
        return at
    }

    private func writeAndRename(_ id: String, _ book: Book) throws -> ContinuousClock.Instant {
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw BenchError("cannot open \(folder): \(String(cString: strerror(errno)))") }
        defer { close(dirFD) }
        try BookFile.write(BookFile.bytes(book), to: id + ".json.tmp", in: dirFD)
        let at = ContinuousClock.now
        guard renameat(dirFD, id + ".json.tmp", dirFD, id + ".json") == 0 else {
            throw BenchError("cannot rename \(id).json.tmp: \(String(cString: strerror(errno)))")
        }
        return at
    }
}

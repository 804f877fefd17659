import Foundation

/// A document id as the store tells documents apart: by its exact UTF-8 bytes, as Firestore
/// compares ids. Swift's `String ==` (and its hashing) treats "café" written with U+00E9 and
/// with "e" + U+0301 as one string; on disk they are two files and in Firestore two documents,
/// so every table keyed by id uses this instead of `String` (Shelf's app too: `package`).
package struct ExactID: Hashable, Comparable, @unchecked Sendable, CustomStringConvertible {  // its bytes never change
    /// The id's bytes: its own block, or part of one that the ids of a folder's listing share
    /// (`IDArena`). For a file whose name is not valid UTF-8, its name with the invalid bytes
    /// escaped (`caf\xE9`) and then a NUL, which no id holds: it never equals a real id, even
    /// one spelled like its escaped form, and its bytes sort right after that look-alike.
    ///
    /// Not a `String`: a 20-character id is a string object of its own, a 64-byte block of
    /// malloc (64 MB for a million documents); in a shared block it takes its bytes.
    private let block: IDBlock
    /// The first byte's offset in the block, shifted left by 32, and the count.
    private let place: UInt64

    package init(_ id: String) {
        var id = id
        self = id.withUTF8 { bytes in
            var arena = IDArena(blockSize: bytes.count)
            return arena.id(bytes)
        }
    }

    init(undecodableFileName escaped: String) {
        self.init(escaped + "\0")
    }

    fileprivate init(block: IDBlock, start: Int, count: Int) {
        self.block = block
        place = UInt64(start) << 32 | UInt64(count)
    }

    private var count: Int { Int(place & 0xFFFF_FFFF) }

    /// For tests: which block holds the bytes.
    var blockIdentifier: ObjectIdentifier { ObjectIdentifier(block) }

    /// The id. For a file whose name is not valid UTF-8, the name with its invalid bytes
    /// escaped: such a file is reported as a document that cannot be read.
    package var text: String {
        withBytes { bytes in String(decoding: bytes.last == 0 ? UnsafeBufferPointer(rebasing: bytes.dropLast()) : bytes, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 of `text`: the id's own bytes, without making a string,
    /// for every id but an undecodable file name's.
    package func withTextUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard !isUndecodableFileName else {
            var text = self.text
            return try text.withUTF8(body)
        }
        return try withBytes(body)
    }

    /// True for a file whose name is not valid UTF-8.
    package var isUndecodableFileName: Bool { withBytes { $0.last == 0 } }

    package var description: String { text }

    /// Calls `body` with the id's bytes as the store compares them.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try block.withUnsafeMutablePointerToElements { base in
            try body(UnsafeBufferPointer(start: base + Int(place >> 32), count: count))
        }
    }

    package static func == (a: ExactID, b: ExactID) -> Bool {
        a.count == b.count && a.withBytes { x in b.withBytes { y in UTF8Bytes.compare(x, y) == 0 } }
    }

    package func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(count)
    }

    /// Firestore's order of ids (`IDOrder`): numeric ids first, the rest by UTF-8 bytes (an
    /// undecodable name after its look-alike).
    package static func < (a: ExactID, b: ExactID) -> Bool {
        a.withBytes { x in b.withBytes { y in IDOrder.compare(x, y) < 0 } }
    }
}

/// Bytes of ids one after the other; never changed where an id's bytes are.
final class IDBlock: ManagedBuffer<Void, UInt8> {}

/// Makes ids whose bytes share blocks of `blockSize` (or one of their own when longer): the
/// ids of one listing of a folder. Small blocks, so that threads working on different
/// documents seldom retain and release one block at once.
struct IDArena {
    private let blockSize: Int
    private var block: IDBlock?
    /// The block's bytes, kept here: `ManagedBuffer.capacity` asks malloc each time.
    private var capacity = 0
    private var used = 0

    init(blockSize: Int = 4_096) {
        self.blockSize = blockSize
    }

    mutating func id(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactID {
        if block == nil || capacity - used < bytes.count {
            capacity = max(blockSize, bytes.count)
            block = unsafeDowncast(IDBlock.create(minimumCapacity: capacity) { _ in }, to: IDBlock.self)
            used = 0
        }
        let start = used
        if let base = bytes.baseAddress {
            block!.withUnsafeMutablePointerToElements { ($0 + start).update(from: base, count: bytes.count) }
        }
        used += bytes.count
        return ExactID(block: block!, start: start, count: bytes.count)
    }
}

extension ExactID: ExpressibleByStringLiteral {
    package init(stringLiteral id: String) { self.init(id) }
}

/// Strings as their UTF-8 bytes: equality, order and hashing that never normalize.
package enum UTF8Bytes {
    package static func equal(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        guard a.utf8.count == b.utf8.count else { return false }
        return a.withUTF8 { x in b.withUTF8 { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// -1, 0 or 1, as the bytes compare (unsigned, shorter first on a common prefix).
    static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
    }

    static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(x.count, y.count)
        let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
        if order != 0 { return order < 0 ? -1 : 1 }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    /// No byte over 0x7F: such strings are equal under `String ==` only when their bytes are.
    static func isASCII(_ string: String) -> Bool {
        string.utf8.allSatisfy { $0 < 0x80 }
    }

    static func hash(_ string: String, into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)  // ends the string, so segments of a path hash apart
    }
}

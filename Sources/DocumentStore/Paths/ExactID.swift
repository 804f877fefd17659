import Foundation

/// A document id as the store tells documents apart: by its exact UTF-8 bytes, as Firestore
/// compares ids. Swift's `String ==` (and its hashing) treats "café" written with U+00E9 and
/// with "e" + U+0301 as one string; on disk they are two files and in Firestore two documents,
/// so every table keyed by id uses this instead of `String` (Shelf's app too: `package`).
package struct ExactID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id; for a file whose name is not valid UTF-8, its name with the invalid bytes
    /// escaped (`caf\xE9`) and then a NUL, which no id holds: it never equals a real id, even
    /// one spelled like its escaped form, and its bytes sort right after that look-alike. One
    /// string, not a string and a flag: tables of 100,000 ids are a third smaller.
    private let bytes: String

    package init(_ id: String) {
        bytes = id
    }

    init(undecodableFileName escaped: String) {
        bytes = escaped + "\0"
    }

    /// The id. For a file whose name is not valid UTF-8, the name with its invalid bytes
    /// escaped: such a file is reported as a document that cannot be read.
    package var text: String {
        isUndecodableFileName ? String(decoding: bytes.utf8.dropLast(), as: UTF8.self) : bytes
    }

    /// True for a file whose name is not valid UTF-8.
    package var isUndecodableFileName: Bool { withBytes { $0.last == 0 } }

    package var description: String { text }

    /// Calls `body` with the id's bytes as the store compares them.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var bytes = bytes
        return try bytes.withUTF8(body)
    }

    package static func == (a: ExactID, b: ExactID) -> Bool {
        UTF8Bytes.equal(a.bytes, b.bytes)
    }

    package func hash(into hasher: inout Hasher) {
        UTF8Bytes.hash(bytes, into: &hasher)
    }

    /// Firestore's order of ids (`IDOrder`): numeric ids first, the rest by UTF-8 bytes (an
    /// undecodable name after its look-alike).
    package static func < (a: ExactID, b: ExactID) -> Bool {
        IDOrder.compare(a.bytes, b.bytes) < 0
    }
}

extension ExactID: ExpressibleByStringLiteral {
    package init(stringLiteral id: String) { self.init(id) }
}

/// Strings as their UTF-8 bytes: equality, order and hashing that never normalize.
enum UTF8Bytes {
    static func equal(_ a: String, _ b: String) -> Bool {
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

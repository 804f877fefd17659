import Foundation

/// A row's searchable text, folded (see `TextFolding`) into bytes, with a plain byte search:
/// it keeps filtering 100,000 rows within a frame.
struct SearchText: Sendable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = TextFolding.fold(text) }

    /// Bytes already folded by `TextFolding`.
    init(folded bytes: [UInt8]) { self.bytes = bytes }

    func contains(_ needle: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { haystack in needle.withUnsafeBufferPointer { Self.bytes(haystack, contain: $0) } }
    }

    /// Whether `needle` is in `haystack`, both folded.
    static func bytes(_ haystack: UnsafeBufferPointer<UInt8>, contain needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count && haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}

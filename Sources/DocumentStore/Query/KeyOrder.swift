import Foundation

/// Sorts by `ExactID` (Firestore's order of ids: numeric ids first, then by their UTF-8 bytes)
/// without retaining or releasing anything per comparison: the ids' bytes are copied end to end once, and most
/// comparisons are of one number, the eight bytes that follow the prefix every id shares
/// ("generated-00…" or none), with `memcmp` on the whole ids only when those are equal.
/// 100,000 ids sort in a few milliseconds.
enum KeyOrder {
    private struct Entry {
        /// Big-endian and zero-padded, so it orders as the bytes do (no id holds a NUL).
        var next8: UInt64
        var index: Int32
    }

    /// The indices of `keys` in the order of the keys.
    static func permutation(_ keys: [ExactID]) -> [Int] {
        permutation(count: keys.count) { keys[$0] }
    }

    /// The indices `0..<count` in the order of their keys: numeric ids (`IDOrder`) first, by
    /// their number, then the rest by their bytes.
    private static func permutation(count: Int, key: (Int) -> ExactID) -> [Int] {
        let numeric = (0..<count).compactMap { index in IDOrder.number(of: key(index).text).map { (number: $0, index: index) } }
        guard !numeric.isEmpty else { return bytePermutation(count: count, key: key) }
        let numericIndices = Set(numeric.map(\.index))
        let others = (0..<count).filter { !numericIndices.contains($0) }
        let first = numeric.sorted { $0.number != $1.number ? $0.number < $1.number : key($0.index) < key($1.index) }
        return first.map(\.index) + bytePermutation(count: others.count) { key(others[$0]) }.map { others[$0] }
    }

    /// The indices `0..<count` in the order of their keys' bytes: each key is asked for once,
    /// and again only to break a tie of bytes.
    private static func bytePermutation(count: Int, key: (Int) -> ExactID) -> [Int] {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(count)
        for index in 0..<count {
            var text = key(index).text
            text.withUTF8 { utf8 in
                spans.append((bytes.count, utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }
        var entries: [Entry] = []
        bytes.withUnsafeBufferPointer { bytes in
            spans.withUnsafeBufferPointer { spans in
                let shared = sharedPrefix(bytes, spans)
                entries = spans.indices.map { index in
                    let span = spans[index]
                    var next8: UInt64 = 0
                    for offset in shared..<shared + 8 {
                        next8 = next8 << 8 | UInt64(offset < span.count ? bytes[span.start + offset] : 0)
                    }
                    return Entry(next8: next8, index: Int32(index))
                }
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                entries.sort { x, y in
                    if x.next8 != y.next8 { return x.next8 < y.next8 }
                    let (i, j) = (Int(x.index), Int(y.index))
                    let (a, b) = (spans[i], spans[j])
                    let common = min(a.count, b.count)
                    let order = common == 0 ? 0 : memcmp(base + a.start, base + b.start, common)
                    if order != 0 { return order < 0 }
                    if a.count != b.count { return a.count < b.count }
                    return key(i) < key(j)  // a name that is not UTF-8 after its look-alike
                }
            }
        }
        return entries.map { Int($0.index) }
    }

    /// How many bytes every id starts with.
    private static func sharedPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ spans: UnsafeBufferPointer<(start: Int, count: Int)>) -> Int {
        guard let first = spans.first else { return 0 }
        var shared = first.count
        for span in spans.dropFirst() {
            var length = 0
            while length < min(shared, span.count) && bytes[first.start + length] == bytes[span.start + length] { length += 1 }
            shared = length
        }
        return shared
    }

    /// `items` sorted by their keys, ascending or descending.
    static func sorted<T>(_ items: [T], descending: Bool = false, key: (T) -> ExactID) -> [T] {
        let order = permutation(count: items.count) { key(items[$0]) }
        return descending ? order.reversed().map { items[$0] } : order.map { items[$0] }
    }
}

import Foundation

/// Sorts by `ExactID` (Firestore's order of ids: their UTF-8 bytes) without retaining or
/// releasing anything per comparison: the ids' bytes are copied end to end once, and a
/// permutation is sorted with `memcmp` on them. 100,000 ids sort in a few milliseconds.
enum KeyOrder {
    /// The indices of `keys` in the order of the keys.
    static func permutation(_ keys: [ExactID]) -> [Int] {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(keys.count)
        for key in keys {
            spans.append((bytes.count, key.text.utf8.count))
            bytes += key.text.utf8
        }
        var order = Array(keys.indices)
        bytes.withUnsafeBufferPointer { bytes in
            spans.withUnsafeBufferPointer { spans in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                order.sort { i, j in
                    let (a, b) = (spans[i], spans[j])
                    let common = min(a.count, b.count)
                    let order = common == 0 ? 0 : memcmp(base + a.start, base + b.start, common)
                    if order != 0 { return order < 0 }
                    if a.count != b.count { return a.count < b.count }
                    return keys[i] < keys[j]  // a name that is not UTF-8 after its look-alike
                }
            }
        }
        return order
    }

    /// `items` sorted by their keys, ascending or descending.
    static func sorted<T>(_ items: [T], descending: Bool = false, key: (T) -> ExactID) -> [T] {
        let order = permutation(items.map(key))
        return descending ? order.reversed().map { items[$0] } : order.map { items[$0] }
    }
}

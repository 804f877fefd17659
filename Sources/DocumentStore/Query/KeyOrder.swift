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
    /// their number, then the rest by their bytes. Each key is asked for once (its bytes copied,
    /// and looked at as a number only when it starts with "__id"), and again only to break a
    /// tie of bytes.
    private static func permutation(count: Int, key: (Int) -> ExactID) -> [Int] {
        var ids = CopiedIDs(count: count)
        var numeric: [(number: Int64, index: Int)] = []
        for index in 0..<count {
            if ids.append(key(index)), let number = IDOrder.number(of: key(index).text) { numeric.append((number, index)) }
        }
        guard !numeric.isEmpty else { return ids.bytePermutation(of: Array(0..<count), key: key) }
        let numericIndices = Set(numeric.map(\.index))
        let others = (0..<count).filter { !numericIndices.contains($0) }
        let first = numeric.sorted { $0.number != $1.number ? $0.number < $1.number : key($0.index) < key($1.index) }
        return first.map(\.index) + ids.bytePermutation(of: others, key: key)
    }

    /// Ids' bytes end to end, each id's span of them.
    private struct CopiedIDs {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []

        init(count: Int) { spans.reserveCapacity(count) }

        /// Copies the id's bytes; true when it may be a numeric id (it starts with "__id").
        mutating func append(_ id: ExactID) -> Bool {
            var text = id.text
            return text.withUTF8 { utf8 in
                spans.append((bytes.count, utf8.count))
                bytes.append(contentsOf: utf8)
                return utf8.count > 6 && utf8[0] == 0x5F && utf8[1] == 0x5F && utf8[2] == 0x69 && utf8[3] == 0x64  // "__id"
            }
        }

        /// `indices` (of the ids copied) in the order of their ids' bytes; a large list sorted
        /// a half on each of two cores, then merged.
        func bytePermutation(of indices: [Int], key: (Int) -> ExactID) -> [Int] {
            var entries: [Entry] = []
            bytes.withUnsafeBufferPointer { bytes in
                spans.withUnsafeBufferPointer { spans in
                    let shared = sharedPrefix(bytes, spans, indices)
                    entries = indices.map { index in
                        let span = spans[index]
                        var next8: UInt64 = 0
                        for offset in shared..<shared + 8 {
                            next8 = next8 << 8 | UInt64(offset < span.count ? bytes[span.start + offset] : 0)
                        }
                        return Entry(next8: next8, index: Int32(index))
                    }
                    let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                    let precedes = { (x: Entry, y: Entry) -> Bool in
                        if x.next8 != y.next8 { return x.next8 < y.next8 }
                        let (i, j) = (Int(x.index), Int(y.index))
                        let (a, b) = (spans[i], spans[j])
                        let common = min(a.count, b.count)
                        let order = common == 0 ? 0 : memcmp(base + a.start, base + b.start, common)
                        if order != 0 { return order < 0 }
                        if a.count != b.count { return a.count < b.count }
                        return key(i) < key(j)  // a name that is not UTF-8 after its look-alike
                    }
                    entries = sortedOnTwoCores(entries, by: precedes)
                }
            }
            return entries.map { Int($0.index) }
        }
    }

    /// Lists this long are sorted a half a core.
    private static let splitPast = 100_000

    /// `entries` sorted: past `splitPast`, each half on its own thread, then merged.
    private static func sortedOnTwoCores(_ entries: [Entry], by precedes: (Entry, Entry) -> Bool) -> [Entry] {
        guard entries.count > splitPast else { return entries.sorted(by: precedes) }
        let middle = entries.count / 2
        var halves: [[Entry]] = [Array(entries[..<middle]), Array(entries[middle...])]
        halves.withUnsafeMutableBufferPointer { halves in
            let halves = UnsafeHalves(base: halves.baseAddress!)
            withoutActuallyEscaping(precedes) { precedes in
                let sendable = UnsafeComparison(precedes: precedes)
                DispatchQueue.concurrentPerform(iterations: 2) { half in halves.base[half].sort(by: sendable.precedes) }
            }
        }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count)
        var (i, j) = (0, 0)
        let (a, b) = (halves[0], halves[1])
        while i < a.count && j < b.count {
            if precedes(b[j], a[i]) { merged.append(b[j]); j += 1 } else { merged.append(a[i]); i += 1 }
        }
        merged += a[i...]
        merged += b[j...]
        return merged
    }

    /// The two halves, each sorted by one thread.
    private struct UnsafeHalves: @unchecked Sendable {
        let base: UnsafeMutablePointer<[Entry]>
    }

    /// A comparison of bytes both threads only read.
    private struct UnsafeComparison: @unchecked Sendable {
        let precedes: (Entry, Entry) -> Bool
    }

    /// How many bytes every id of `indices` starts with.
    private static func sharedPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ spans: UnsafeBufferPointer<(start: Int, count: Int)>,
                                     _ indices: [Int]) -> Int {
        guard let firstIndex = indices.first else { return 0 }
        let first = spans[firstIndex]
        var shared = first.count
        for index in indices.dropFirst() {
            let span = spans[index]
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

/// What a cell sorts by: numbers by value (before any text), text by its folded bytes, so
/// "Émile" sorts with "emile" and not after "z".
enum SortKey: Comparable, Sendable {
    case number(Double)
    /// Folded bytes of up to 23, in the key itself: most titles, names and genres. A million
    /// titles sorted are a 32-byte slot each instead of a 16-byte slot and an array's 64-byte
    /// block of malloc, and compare without leaving the keys' array.
    case short(ShortText)
    /// Folded bytes of more than 23.
    case text([UInt8])

    init(text: String) { self.init(folded: TextFolding.fold(text)) }

    init(folded bytes: [UInt8]) {
        self = ShortText(bytes).map(SortKey.short) ?? .text(bytes)
    }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a), .number(b)): return a < b
        case (.number, _): return true
        case (_, .number): return false
        default: return KeyOrder.compareTexts(lhs, rhs) < 0
        }
    }
}

/// Up to 23 bytes as three big-endian words, zero-padded, the count in the last byte: the
/// words compared as numbers, one after the other, order as the bytes do (a shorter text
/// that the other extends, zeros included, comes first by its count).
struct ShortText: Equatable, Sendable {
    static let capacity = 23
    /// Bytes 0–7, 8–15, and 16–22 then the count.
    let first: UInt64, second: UInt64, third: UInt64

    init?(_ bytes: [UInt8]) {
        guard bytes.count <= Self.capacity else { return nil }
        first = Self.word(bytes, from: 0, count: 8)
        second = Self.word(bytes, from: 8, count: 8)
        third = Self.word(bytes, from: 16, count: 7) << 8 | UInt64(bytes.count)
    }

    /// `count` bytes from `start`, big-endian, zero-padded past the end: words made so order
    /// as the bytes do (a long key's first 8 are its sort entry's prefix).
    static func word(_ bytes: [UInt8], from start: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for position in start..<start + count {
            value = value << 8 | UInt64(position < bytes.count ? bytes[position] : 0)
        }
        return value
    }

    var count: Int { Int(third & 0xFF) }

    /// -1, 0 or 1 as the bytes order.
    func compare(_ other: ShortText) -> Int {
        if first != other.first { return first < other.first ? -1 : 1 }
        if second != other.second { return second < other.second ? -1 : 1 }
        return third < other.third ? -1 : (third > other.third ? 1 : 0)
    }

    var bytes: [UInt8] {
        (0..<count).map { position in
            let word = position < 8 ? first : (position < 16 ? second : third)
            return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (position % 8)))
        }
    }
}

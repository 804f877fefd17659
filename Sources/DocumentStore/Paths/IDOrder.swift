/// Firestore's order of the segments of a path (document ids, collection ids): numeric ids,
/// `__id<n>__` with `n` a 64-bit integer, first, by their number; then every other id by its
/// UTF-8 bytes. Firestore's SDK orders paths so (`BasePath::CompareSegments`), and its own
/// ordering tests write such ids.
package enum IDOrder {
    /// The number of a numeric id (`__id42__`, `__id-7__`); nil for any other id.
    package static func number(of id: String) -> Int64? {
        let utf8 = id.utf8
        guard utf8.count > 6, utf8.starts(with: "__id".utf8), utf8.reversed().starts(with: "__".utf8) else { return nil }
        let digits = utf8.dropFirst(4).dropLast(2)
        let unsigned = digits.first == UInt8(ascii: "-") ? digits.dropFirst() : digits
        guard !unsigned.isEmpty, unsigned.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }

    /// -1, 0 or 1, as the ids compare: numeric before the rest, numbers by value (two spellings
    /// of one number by their bytes, so no two ids tie), others by bytes.
    package static func compare(_ a: String, _ b: String) -> Int {
        switch (number(of: a), number(of: b)) {
        case (nil, nil): return UTF8Bytes.compare(a, b)
        case (_?, nil): return -1
        case (nil, _?): return 1
        case let (x?, y?): return x != y ? (x < y ? -1 : 1) : UTF8Bytes.compare(a, b)
        }
    }

    /// -1, 0 or 1, as paths compare segment by segment; a path before the longer ones it begins.
    package static func compare(_ a: [String], _ b: [String]) -> Int {
        for (x, y) in zip(a, b) {
            let order = compare(x, y)
            if order != 0 { return order }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

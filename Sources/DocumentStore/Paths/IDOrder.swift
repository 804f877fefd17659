/// Firestore's order of the segments of a path (document ids, collection ids): numeric ids,
/// `__id<n>__` with `n` a 64-bit integer, first, by their number; then every other id by its
/// UTF-8 bytes. Firestore's SDK orders paths so (`BasePath::CompareSegments`), and its own
/// ordering tests write such ids.
package enum IDOrder {
    /// The number of a numeric id (`__id42__`, `__id-7__`); nil for any other id.
    package static func number(of id: String) -> Int64? {
        var id = id
        return id.withUTF8 { number(of: $0) }
    }

    /// The same, of an id's UTF-8 bytes.
    static func number(of id: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard id.count > 6, id.starts(with: "__id".utf8), id.reversed().starts(with: "__".utf8) else { return nil }
        let digits = id[4..<(id.count - 2)]
        let negative = digits.first == UInt8(ascii: "-")
        let unsigned = negative ? digits.dropFirst() : digits
        guard !unsigned.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in unsigned {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            // Accumulated negatively, so Int64.min is read as Int64(_:) reads it.
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAgain) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow && !overflowAgain else { return nil }
            value = next
        }
        return value
    }

    /// -1, 0 or 1, as the ids compare: numeric before the rest, numbers by value (two spellings
    /// of one number by their bytes, so no two ids tie), others by bytes.
    package static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
    }

    /// The same, of two ids' UTF-8 bytes.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        // Only an id that starts with "__" can be numeric: most pairs go straight to their bytes.
        let x = a.first == UInt8(ascii: "_") ? number(of: a) : nil, y = b.first == UInt8(ascii: "_") ? number(of: b) : nil
        switch (x, y) {
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

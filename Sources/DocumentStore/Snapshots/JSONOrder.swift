/// Firestore's ordering of values across types: null < booleans < numbers < strings < arrays <
/// maps; numbers by value, strings by their UTF-8 bytes. A missing value sorts first.
enum JSONOrder {
    static func equal(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return compare(a, b) == 0
    }

    static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (a?, b?): return compare(a, b)
        }
    }

    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case let (.bool(x), .bool(y)): return x == y ? 0 : (!x ? -1 : 1)
        case let (.number(x), .number(y)):
            let (dx, dy) = (Double(x) ?? 0, Double(y) ?? 0)
            return dx == dy ? 0 : (dx < dy ? -1 : 1)
        case let (.string(x), .string(y)): return compareStrings(x, y)
        case let (.array(x), .array(y)):
            for (u, v) in zip(x, y) {
                let c = compare(u, v)
                if c != 0 { return c }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        case let (.object(x), .object(y)):
            for (kx, ky) in zip(x.keys.sorted(), y.keys.sorted()) {
                let c = compareStrings(kx, ky)
                if c != 0 { return c }
                let v = compare(x[kx]!, y[ky]!)
                if v != 0 { return v }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        default: return 0
        }
    }

    static func compareStrings(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 0
        case .bool: return 1
        case .number: return 2
        case .string: return 3
        case .array: return 4
        case .object: return 5
        }
    }
}

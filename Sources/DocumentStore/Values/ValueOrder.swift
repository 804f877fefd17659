import Foundation

/// Firestore's total order of values: null < booleans < numbers < timestamps < strings < bytes <
/// references < GeoPoints < arrays < vectors < maps. Numbers compare by value across integers and
/// doubles, exactly (NaN before every other number); strings by their UTF-8 bytes; references
/// segment by segment as paths (`IDOrder`); vectors by their length, then their numbers; maps by their sorted keys,
/// then values.
enum ValueOrder {
    static func compare(_ a: FirestoreValue?, _ b: FirestoreValue?) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (a?, b?): return compare(a, b)
        }
    }

    static func compare(_ a: FirestoreValue, _ b: FirestoreValue) -> Int {
        let (rankA, rankB) = (a.typeOrder, b.typeOrder)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case let (.boolean(x), .boolean(y)): return x == y ? 0 : (!x ? -1 : 1)
        case let (.integer(x), .integer(y)): return sign(x, y)
        case let (.double(x), .double(y)): return compareDoubles(x, y)
        case let (.integer(x), .double(y)): return compareIntegerToDouble(x, y)
        case let (.double(x), .integer(y)): return -compareIntegerToDouble(y, x)
        case let (.timestamp(x), .timestamp(y)): return x == y ? 0 : (x < y ? -1 : 1)
        case let (.string(x), .string(y)): return compareStrings(x, y)
        case let (.bytes(x), .bytes(y)):
            return x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        case let (.reference(x), .reference(y)):
            return IDOrder.compare(x.resourcePath.segments, y.resourcePath.segments)
        case let (.geoPoint(x), .geoPoint(y)):
            let c = compareDoubles(x.latitude, y.latitude)
            return c != 0 ? c : compareDoubles(x.longitude, y.longitude)
        case let (.array(x), .array(y)):
            for (u, v) in zip(x, y) {
                let c = compare(u, v)
                if c != 0 { return c }
            }
            return sign(x.count, y.count)
        case (.map, .map) where a.typeOrder == vectorOrder:
            let (x, y) = (a.vectorElements ?? [], b.vectorElements ?? [])
            return x.count != y.count ? sign(x.count, y.count) : compare(.array(x), .array(y))
        case let (.map(x), .map(y)):
            for (u, v) in zip(x, y) {  // names in their sorted order
                let c = compareStrings(u.name, v.name)
                if c != 0 { return c }
                let d = compare(u.value, v.value)
                if d != 0 { return d }
            }
            return sign(x.count, y.count)
        default: return 0
        }
    }

    /// The type order of vectors, between arrays and maps.
    static let vectorOrder = 9

    static func compareStrings(_ a: String, _ b: String) -> Int {
        UTF8Bytes.compare(a, b)
    }

    private static func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : (a < b ? -1 : 1) }

    /// NaN sorts before every other number and equals itself.
    private static func compareDoubles(_ a: Double, _ b: Double) -> Int {
        if a.isNaN { return b.isNaN ? 0 : -1 }
        if b.isNaN { return 1 }
        return sign(a, b)
    }

    /// Exact: 2^53 + 1 is greater than the double 2^53.
    private static func compareIntegerToDouble(_ a: Int64, _ b: Double) -> Int {
        if b.isNaN { return 1 }
        if b >= 0x1p63 { return -1 }
        if b < -0x1p63 { return 1 }
        let whole = b.rounded(.down)
        let integer = Int64(whole)
        if a != integer { return sign(a, integer) }
        return whole == b ? 0 : -1  // b has a fraction above `integer`
    }
}

extension FirestoreValue {
    /// Firestore's order of types (integers and doubles are one type, numbers); a range filter
    /// matches only values of its own type.
    var typeOrder: Int {
        switch self {
        case .null: return 0
        case .boolean: return 1
        case .integer, .double: return 2
        case .timestamp: return 3
        case .string: return 4
        case .bytes: return 5
        case .reference: return 6
        case .geoPoint: return 7
        case .array: return 8
        case .map: return vectorElements == nil ? 10 : ValueOrder.vectorOrder
        }
    }
}

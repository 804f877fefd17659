import Foundation

/// A point in time with nanosecond precision, stored on disk as an RFC 3339 string in UTC
/// (`2014-09-09T00:00:00Z`, `2026-11-22T05:30:00.123456789Z`).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let seconds: Int64
    public let nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32) {
        precondition((0..<1_000_000_000).contains(nanoseconds), "Timestamp nanoseconds must be in 0..<1_000_000_000")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// As Firebase's `timestampWithDate:` (FIRTimestamp.m): the interval since 1970 split into
    /// whole seconds and a fraction (`modf`, then a negative fraction borrows a second), the
    /// fraction's nanoseconds truncated, not rounded. So a `Date` read from a timestamp may
    /// come back a nanosecond or more earlier, as it does in Firebase. Never traps: a date
    /// beyond any calendar saturates (Firebase raises), and a write then refuses it as outside
    /// Firestore's range.
    public init(date: Date) {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < Self.saturation else {
            self.init(seconds: interval < 0 ? -Self.saturationSeconds : Self.saturationSeconds, nanoseconds: 0)
            return
        }
        var whole = interval.rounded(.towardZero)
        var fraction = interval - whole
        if fraction < 0 {
            fraction += 1
            whole -= 1
        }
        var nanos = Int64(fraction * 1e9)
        // A fraction a hair below zero borrows a whole second (Firebase then raises).
        if nanos >= 1_000_000_000 {
            nanos -= 1_000_000_000
            whole += 1
        }
        self.init(seconds: Int64(whole), nanoseconds: Int32(nanos))
    }

    /// The instant nearest the date's interval, to the nanosecond.
    private init(nearest date: Date) {
        let reference = date.timeIntervalSinceReferenceDate
        guard reference.isFinite, abs(reference) < Self.saturation else {
            self.init(seconds: reference < 0 ? -Self.saturationSeconds : Self.saturationSeconds, nanoseconds: 0)
            return
        }
        var whole = reference.rounded(.down)
        var nanos = ((reference - whole) * 1e9).rounded()
        if nanos >= 1e9 { whole += 1; nanos -= 1e9 }
        self.init(seconds: Int64(whole) + Self.referenceDateOffset, nanoseconds: Int32(nanos))
    }

    /// Far beyond year 9999 and far from Int64's edges, so date arithmetic cannot overflow.
    private static let saturationSeconds: Int64 = 1 << 50
    private static let saturation = Double(saturationSeconds)

    public init() { self.init(date: Date()) }

    /// The nearest `Date`, as Firebase's. Near year 9999 a Date is coarse (about 30 µs), and the
    /// nearest may lie past 9999-12-31T23:59:59.999999999Z, which no write accepts; then the
    /// nearest one not after this instant, so that saving it back never leaves Firestore's range.
    public func dateValue() -> Date {
        let sum = (Double(seconds) - Double(Self.referenceDateOffset)) + Double(nanoseconds) / 1e9
        // The sum is rounded twice; of it and its neighbours, take the one nearest this instant.
        var best = sum
        var bestDistance = distance(to: sum)
        for candidate in [sum.nextDown, sum.nextUp] where distance(to: candidate) < bestDistance {
            best = candidate
            bestDistance = distance(to: candidate)
        }
        let limit = Self.storableRange.upperBound
        if self <= limit, Timestamp(nearest: Date(timeIntervalSinceReferenceDate: best)) > limit {
            for _ in 0..<4 where Timestamp(nearest: Date(timeIntervalSinceReferenceDate: best)) > self {
                best = best.nextDown
            }
        }
        return Date(timeIntervalSinceReferenceDate: best)
    }

    /// How far a reference-date interval is from this instant, in nanoseconds (saturating).
    private func distance(to interval: Double) -> Int64 {
        let other = Timestamp(nearest: Date(timeIntervalSinceReferenceDate: interval))
        let (whole, overflow) = other.seconds.subtractingReportingOverflow(seconds)
        let (nanos, overflowInScale) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowInSum) = nanos.addingReportingOverflow(Int64(other.nanoseconds) - Int64(nanoseconds))
        guard !overflow, !overflowInScale, !overflowInSum, total != .min else { return .max }
        return abs(total)
    }

    /// The instants Firestore stores: 0001-01-01T00:00:00Z through 9999-12-31T23:59:59.999999999Z.
    static let storableRange = Timestamp(seconds: -62_135_596_800, nanoseconds: 0)...Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999)
    static let storableRangeText = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"

    /// Why Firestore would refuse to store this instant, or nil when it stores it.
    var rangeProblem: String? {
        if Self.storableRange.contains(self) { return nil }
        // A Date too far out to convert saturates at 2^50 seconds: say so, not its odd year.
        let shown = seconds >= Self.saturationSeconds ? "a time after year 9999"
            : seconds <= -Self.saturationSeconds ? "a time before year 1" : "the timestamp \(rfc3339)"
        return "\(shown) is outside the range Firestore stores, \(Self.storableRangeText)"
    }

    /// Firestore keeps microseconds; the rest is truncated.
    var truncatedToMicroseconds: Timestamp {
        Timestamp(seconds: seconds, nanoseconds: nanoseconds - nanoseconds % 1000)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// Firebase's `NSObject` comparison: earlier, same, later.
    public func compare(_ other: Timestamp) -> ComparisonResult {
        self < other ? .orderedAscending : self == other ? .orderedSame : .orderedDescending
    }

    /// Firebase's `NSCopying` copy, typed `Any` as there (`timestamp.copy() as! Timestamp`); a
    /// value type's copy is itself.
    public func copy() -> Any { self }

    public var description: String { rfc3339 }

    /// Seconds from 1970-01-01 to 2001-01-01.
    private static let referenceDateOffset: Int64 = 978_307_200

    // MARK: RFC 3339

    /// UTC, with the fraction in groups of three digits and only as long as needed.
    public var rfc3339: String {
        // Without multiplying, so that even Int64.min seconds cannot overflow.
        let remainder = seconds % 86_400
        let days = seconds / 86_400 - (remainder < 0 ? 1 : 0)
        let secondOfDay = remainder < 0 ? remainder + 86_400 : remainder
        let (year, month, day) = Self.civilDate(fromDays: days)
        // Into bytes: a document's every write formats its create time (a batch of 500 under
        // the store's write lock).
        var text: [UInt8] = []
        text.reserveCapacity(32)
        func field(_ value: Int64, _ width: Int, then separator: String) {
            Self.append(value, width: width, to: &text)
            text.append(contentsOf: separator.utf8)
        }
        field(year, 4, then: "-")
        field(month, 2, then: "-")
        field(day, 2, then: "T")
        field(secondOfDay / 3600, 2, then: ":")
        field(secondOfDay / 60 % 60, 2, then: ":")
        field(secondOfDay % 60, 2, then: "")
        if nanoseconds != 0 {
            var fraction = Int64(nanoseconds), width = 9
            while fraction % 1000 == 0 { fraction /= 1000; width -= 3 }
            text.append(UInt8(ascii: "."))
            Self.append(fraction, width: width, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= b.count else { return nil }
            var value: Int64 = 0
            for i in range {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                value = value * 10 + Int64(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20,
              let year = number(0..<4), b[4] == UInt8(ascii: "-"),
              let month = number(5..<7), b[7] == UInt8(ascii: "-"),
              let day = number(8..<10), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = number(11..<13), b[13] == UInt8(ascii: ":"),
              let minute = number(14..<16), b[16] == UInt8(ascii: ":"),
              let second = number(17..<19),
              (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 61  // 60 allows a leap second, folded into the next
        else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digits < 9 { nanos = nanos * 10 + Int64(b[i] - 48) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 9 { for _ in digits..<9 { nanos *= 10 } }
        }
        var offset: Int64 = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let oh = number(i + 1..<i + 3), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"),
                  let om = number(i + 4..<i + 6), oh < 24, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Self.days(fromYear: year, month: month, day: day)
        self.init(seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offset, nanoseconds: Int32(nanos))
    }

    /// `value` in decimal, zeros before it up to `width` digits (after the sign of a year
    /// before 0, which no stored time has).
    private static func append(_ value: Int64, width: Int, to text: inout [UInt8]) {
        if value < 0 { text.append(UInt8(ascii: "-")) }
        let start = text.count
        var rest = value.magnitude
        repeat {
            text.append(UInt8(ascii: "0") + UInt8(rest % 10))  // the last digit first
            rest /= 10
        } while rest > 0
        while text.count - start < width { text.append(UInt8(ascii: "0")) }
        text[start...].reverse()
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func days(fromYear y: Int64, month m: Int64, day d: Int64) -> Int64 {
        let y = m <= 2 ? y - 1 : y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilDate(fromDays z: Int64) -> (Int64, Int64, Int64) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// Firebase's Codable form, `{"seconds": …, "nanoseconds": …}`, so a model a Firebase app cached
/// with `JSONEncoder` decodes here and the reverse. `Firestore.Encoder` and `Firestore.Decoder`
/// pass a `Timestamp` through as itself instead.
extension Timestamp: Codable {
    private enum CodingKeys: String, CodingKey { case seconds, nanoseconds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try container.decode(Int64.self, forKey: .seconds)
        let nanoseconds = try container.decode(Int32.self, forKey: .nanoseconds)
        guard (0..<1_000_000_000).contains(nanoseconds) else {
            throw DecodingError.dataCorruptedError(forKey: .nanoseconds, in: container,
                                                   debugDescription: "expected nanoseconds in 0..<1000000000, found \(nanoseconds)")
        }
        self.init(seconds: seconds, nanoseconds: nanoseconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(nanoseconds, forKey: .nanoseconds)
    }
}

extension FirestoreValue {
    /// The value with every timestamp inside truncated to microseconds: a query compares what
    /// Firestore keeps, so `isEqualTo:` a nanosecond timestamp finds the document it was
    /// written to (as the SDK's serializer does).
    var withTimestampsInMicroseconds: FirestoreValue {
        switch self {
        case .timestamp(let timestamp): return .timestamp(timestamp.truncatedToMicroseconds)
        case .array(let values): return .array(values.map(\.withTimestampsInMicroseconds))
        case .map(let fields): return .map(fields.mapValues(\.withTimestampsInMicroseconds))
        default: return self
        }
    }
}

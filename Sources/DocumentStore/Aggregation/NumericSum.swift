/// A running sum as Firestore keeps one: integers exactly, even past the 64-bit range on the way
/// (`Int64.max + 1 - 101` is still the integer `Int64.max - 100`), doubles with compensated
/// (Kahan) summation as Google's emulator adds them (0.1 + 0.2 + 0.3 is 0.6, a sum of -0.0
/// alone is 0.0), an infinity surviving where the compensation turns NaN. Values that are not
/// numbers are skipped.
package struct NumericSum {
    /// How many numbers were added.
    private(set) var numbers = 0
    private var integers = 0
    /// The exact integer total is `wraps * 2^64 + low`.
    private var low: Int64 = 0
    private var wraps = 0
    /// The doubles' compensated sum: `sum - compensation`; `plain` is their sum as added.
    private var sum = 0.0, compensation = 0.0, plain = 0.0
    /// A total of the doubles added elsewhere (`ServerSums`), instead of those three.
    private var given: Double?

    init() {}

    /// A sum whose parts were added elsewhere (`ServerSums`): `integers` integers adding up
    /// to `wraps * 2^64 + low`, and `doubles` doubles adding up to `doubleTotal`.
    package init(integers: Int, low: Int64, wraps: Int, doubles: Int, doubleTotal: Double) {
        (self.integers, self.low, self.wraps) = (integers, low, wraps)
        numbers = integers + doubles
        given = doubleTotal
    }

    mutating func add(_ value: FirestoreValue) {
        switch value {
        case .integer(let integer):
            let (partial, overflow) = low.addingReportingOverflow(integer)
            if overflow { wraps += integer < 0 ? -1 : 1 }
            low = partial
            integers += 1
            numbers += 1
        case .double(let double):
            plain += double
            let corrected = double - compensation
            let next = sum + corrected
            compensation = (next - sum) - corrected
            sum = next
            numbers += 1
        default:
            break
        }
    }

    /// Firestore's sum: an integer while every number was an integer and the total fits in 64
    /// bits; otherwise a double, rounded (precision is lost past 2^53); 0 over no numbers.
    package var total: FirestoreValue {
        if integers == numbers && wraps == 0 { return .integer(low) }
        return .double(doubleTotal)
    }

    /// The average as Firestore gives it: always a double, null over no numbers.
    package var average: FirestoreValue {
        numbers == 0 ? .null : .double(doubleTotal / Double(numbers))
    }

    private var doubles: Double {
        if let given { return given }
        let compensated = sum - compensation
        return compensated.isNaN && plain.isInfinite ? plain : compensated
    }

    private var doubleTotal: Double {
        guard integers > 0 else { return doubles }
        return (Double(wraps) * 0x1p64 + Double(low)) + doubles
    }
}

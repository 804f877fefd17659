@testable import DocumentStore
import Foundation
import XCTest

/// A store on PostgreSQL and a folder store side by side, seeded alike with data made to catch
/// SQL out, so that each test can ask both the same query.
class PushdownTestCase: PostgresTestCase {
    var folder: Firestore!
    private var scratch: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("PushdownTests-\(UUID().uuidString)")
        folder = try Firestore(directory: scratch)
    }

    override func tearDown() {
        folder = nil
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
        super.tearDown()
    }

    /// Tricky values of `n`: every type class, and numbers SQL could order wrongly.
    static var tricky: [Any] { [
        NSNull(), false, true, Double.nan, -Double.infinity, Double.infinity, -0.0, 0, 0.0, 1, 1.0, 1, -1, 2.5,
        -2.5, 1e-5, 9_007_199_254_740_993 as Int64, 9_007_199_254_740_992.0, -9_007_199_254_740_993 as Int64,
        1e18, 1_000_000_000_000_000_001 as Int64, Int64.max, Int64.min, 1e300, "text", "1", ["a": 1], [1, 2],
        Timestamp(seconds: 5, nanoseconds: 0), 7, 7, 7.0, 3, 4.5, ["$double": 1, "x": 2], ["$timestamp": "t", "y": 1], "é", "E", "",
        Timestamp(seconds: 1, nanoseconds: 0), Data([1, 2]),
    ] }
    /// Numbers only, below 2^53, with ties: the server's page is exact and used.
    static var clean: [Any] { [Double.nan, -Double.infinity, -0.0, 0, 1, 1.0, 1, 2.5, -3, 7, 7.0, 7, 1e15, 4.25, Double.infinity, NSNull(), false, true] }

    /// Arrays for `t` (array filters) and values for `s` (string ranges), cycled through.
    static var arrays: [Any] { [
        ["a", 1], [1.0], ["a", "a"], "a", [-0.0], [NSNull()], [Double.nan], ["é", true], [9_007_199_254_740_993 as Int64],
        [0], [], [["x": 1]], [2.5, "b"], [1e300], ["a"], ["a", "b"], ["ab"], ["b"], ["a\u{1}"], ["a\u{2}b"], ["a", "b\u{1}"],
        [false, "x"], [true], [NSNull(), "a"], ["é"], ["e\u{301}"], ["a", Timestamp(seconds: 1, nanoseconds: 0)],
    ] }
    static var strings: [Any] { ["", "a", "B", "b", "é", "e\u{301}", "z", "日本", "😀", "a b", "A", "ab", 5, NSNull(), "éa"] }

    /// The same documents in both stores: `n` from `values` (some documents lack it), a
    /// `kind` for equality filters, a nested `m.x`, an array `t` and a string `s` (some lack them).
    func seed(_ collection: String, _ values: [Any]) throws {
        for (index, value) in values.enumerated() {
            var data: [String: Any] = ["kind": index % 3 == 0 ? "a" : "b", "m": ["x": index % 4]]
            if index % 7 != 6 { data["t"] = Self.arrays[index % Self.arrays.count] }
            if index % 6 != 5 { data["s"] = Self.strings[index % Self.strings.count] }
            if index % 5 != 4 { data["n"] = value }
            let id = String(format: "d%02d", (index * 7) % values.count) + (index % 2 == 0 ? "" : "é")
            for store in [db, folder!] as [Firestore] { try store.document("\(collection)/\(id)").write(data) }
        }
    }

    func ids(_ query: Query) throws -> [String] {
        try query.readSnapshot().documents.map(\.reference.path)
    }
}

import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore
import XCTest

private typealias Aggregation = Google_Firestore_V1_StructuredAggregationQuery.Aggregation

/// RunAggregationQuery answered as Google's emulator answers it (each expected value and text
/// measured there): which documents a limit leaves to a sum, and the refusals in its words.
final class ServedAggregationTests: XCTestCase {
    /// x by document: a 5, b 1, c 3, d 2.5, e "text", f null, g 4, and h without x.
    private static func addNumbers(_ served: ServedStore) async throws {
        let xs: [(String, Google_Firestore_V1_Value)] = [("a", .integer(5)), ("b", .integer(1)), ("c", .integer(3)), ("d", .double(2.5)),
                                                         ("e", .string("text")), ("f", .null), ("g", .integer(4))]
        try await served.commit(xs.map { served.set("numbers/\($0.0)", ["x": $0.1]) } + [served.set("numbers/h", ["y": .integer(1)])])
    }

    private static func limited(_ limit: Int32? = nil, offset: Int32 = 0) -> Google_Firestore_V1_StructuredQuery {
        var query = Google_Firestore_V1_StructuredQuery.collection("numbers")
        if let limit { query.limit.value = limit }
        query.offset = offset
        return query
    }

    func testALimitOrOffsetLeavesTheSumTheDocumentsFirstByItsField() async throws {
        try await ServedStore.eachBackend { served in
            try await Self.addNumbers(served)
            let firstTwo = try await served.aggregate(Self.limited(2), [.sum("s", of: "x")])
            XCTAssertEqual(firstTwo, ["s": .integer(1)], "f (null) and b, by x; \(served.backend)")
            let firstThree = try await served.aggregate(Self.limited(3), [.count("c"), .sum("s", of: "x"), .average("a", of: "x")])
            XCTAssertEqual(firstThree, ["c": .integer(3), "s": .double(3.5), "a": .double(1.75)], "\(served.backend)")
            let afterFive = try await served.aggregate(Self.limited(offset: 5), [.sum("s", of: "x")])
            XCTAssertEqual(afterFive, ["s": .integer(5)], "a and e; \(served.backend)")
            let counted = try await served.aggregate(Self.limited(3), [.count("c")])
            XCTAssertEqual(counted, ["c": .integer(3)], "\(served.backend)")
        }
    }

    func testARefusedAggregationIsRefusedInTheEmulatorsWords() async throws {
        try await ServedStore.eachBackend { served in
            try await Self.addNumbers(served)
            func refusal(_ aggregations: [Aggregation]) async -> (RPCError.Code, String)? {
                await status { try await served.aggregate(Self.limited(), aggregations) }
            }
            var noOperator = Aggregation()
            noOperator.alias = "a"
            var negative = Aggregation.count("a")
            negative.count.upTo.value = -1
            let cases: [([Aggregation], String)] = [
                ([], "Aggregations can not be empty."),
                ([.count("a"), .sum("a", of: "x")], "Aggregation aliases contain duplicate alias: a."),
                ([.count(""), .sum("field_1", of: "x")], "Aggregation aliases contain duplicate alias: field_1."),
                ([noOperator], "Operator field in Aggregation is not set."),
                ([negative], "The `up_to` value in a COUNT aggregation must be greater than or equal to zero."),
                ([.count("__a__")], "The property.name \"__a__\" is reserved."),
                ([.sum("s", of: "__name__")], "Aggregations are not supported for the property: __key__"),
            ]
            for (aggregations, message) in cases {
                let failure = await refusal(aggregations)
                XCTAssertEqual(failure?.0, .invalidArgument, "\(served.backend): \(message)")
                XCTAssertEqual(failure?.1, message, "\(served.backend)")
            }
        }
    }

    func testACountUpToZeroIsZero() async throws {
        try await ServedStore.eachBackend { served in
            try await Self.addNumbers(served)
            var none = Aggregation.count("c")
            none.count.upTo.value = 0
            let result = try await served.aggregate(Self.limited(), [none, .count("all")])
            XCTAssertEqual(result, ["c": .integer(0), "all": .integer(8)], "\(served.backend)")
        }
    }

    /// Every aggregation of a request takes the same documents: those holding the summed field.
    func testACountUpToBesideAnAverageCountsTheDocumentsTheAverageTakes() async throws {
        try await ServedStore.eachBackend { served in
            try await Self.addNumbers(served)
            var upTo = Aggregation.count("c")
            upTo.count.upTo.value = 10
            let result = try await served.aggregate(Self.limited(), [upTo, .average("a", of: "x")])
            XCTAssertEqual(result["c"], .integer(7), "h has no x; \(served.backend)")
        }
    }

    func testALimitOfZeroAggregatesNoDocument() async throws {
        try await ServedStore.eachBackend { served in
            try await Self.addNumbers(served)
            let result = try await served.aggregate(Self.limited(0), [.count("c"), .sum("s", of: "x"), .average("a", of: "x")])
            XCTAssertEqual(result, ["c": .integer(0), "s": .integer(0), "a": .null], "\(served.backend)")
        }
    }

    /// The query's own refusals come first, its cursors judged on its own orders; then the
    /// fields a sum orders by, which cannot come after an ordered name (an inequality on it too).
    func testTheQuerysRefusalsComeBeforeTheAggregationsOrders() async throws {
        try await ServedStore.with(.folder) { served in
            try await Self.addNumbers(served)
            var cursor = Google_Firestore_V1_Cursor()
            cursor.values = [.integer(1)]
            var started = Self.limited()
            started.startAt = cursor
            var tooManyIn = Self.limited().ordered("__name__")
            tooManyIn.where = .field("y", .in, .array((0..<31).map { .integer(Int64($0)) }))
            let name = Google_Firestore_V1_Value.reference(served.name("numbers/c"))
            var nameInABranch = Self.limited()
            nameInABranch.where = .composite(.or, [.field("__name__", .in, .array([name])), .field("y", .equal, .integer(1))])
            let cases: [(Google_Firestore_V1_StructuredQuery, String)] = [
                (started, "Cursor has too many values."),
                (tooManyIn, "'IN' supports up to 30 comparison values."),
                (Self.limited().ordered("__name__").ordered("y"),
                 "This query requires an index that has fields [x] after __name__ and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields."),
                (Self.limited().filtered("__name__", .lessThan, name),
                 "This query requires an index that has fields [x] after __name__ and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields."),
                (Self.limited().filtered("__name__", .equal, name),
                 "This query requires an index that has fields [x] after __name__ and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields."),
                (nameInABranch,
                 "This query requires an index that has fields [x] after __name__ and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields."),
            ]
            for (query, message) in cases {
                let failure = await status { try await served.aggregate(query, [.sum("s", of: "x")]) }
                XCTAssertEqual(failure?.0, .invalidArgument, message)
                XCTAssertEqual(failure?.1, message)
            }
            let scan = await status { try await served.aggregate(Self.limited().ordered("__name__", descending: true), [.sum("s", of: "x")]) }
            XCTAssertEqual(scan?.0, .failedPrecondition, "before the summed field's order")
            let notScanned = await status { try await served.aggregate(Self.limited().ordered("__name__", descending: true).ordered("y"), [.sum("s", of: "x")]) }
            XCTAssertEqual(notScanned?.1, "This query requires an index that has fields [x] after __name__ and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields.")
        }
    }
}

import DocumentStore
import FirestoreProtocol
import GRPCCore
import XCTest

/// Queries Firestore's backend refuses are refused with its status and its message, to the
/// letter, as Google's emulator answers the same requests (measured with gcloud 528.0.0's
/// emulator; scripts/differential.py compares them on every run); and what it takes, such
/// as an inequality beside an order on another field, is answered.
final class ServedQueryValidationTests: XCTestCase {
    private typealias Query = Google_Firestore_V1_StructuredQuery
    private typealias Filter = Google_Firestore_V1_StructuredQuery.Filter

    private static func values(_ count: Int) -> Google_Firestore_V1_Value { .array((0..<count).map { .integer(Int64($0)) }) }

    private static func cursor(_ values: [Google_Firestore_V1_Value]) -> Google_Firestore_V1_Cursor {
        var cursor = Google_Firestore_V1_Cursor()
        cursor.values = values
        cursor.before = true
        return cursor
    }

    private static func unary(_ field: String, _ op: Google_Firestore_V1_StructuredQuery.UnaryFilter.Operator) -> Filter {
        var filter = Filter()
        filter.unaryFilter.field.fieldPath = field
        filter.unaryFilter.op = op
        return filter
    }

    private static func whereFilter(_ filter: Filter) -> Query {
        var query = Query.collection("books")
        query.where = filter
        return query
    }

    func testRefusedWithTheEmulatorsMessages() async throws {
        try await ServedStore.with(.folder) { served in
            try await served.commit([served.set("books/a", ["x": .integer(1), "y": .integer(2)])])
            let books = Query.collection("books")
            let a = Google_Firestore_V1_Value.reference(served.name("books/a"))
            var startedWithTooMany = books.ordered("x")
            startedWithTooMany.startAt = Self.cursor([.integer(0), a])
            var startedByName = books.ordered("__name__")
            startedByName.startAt = Self.cursor([.string("a")])
            var noOrderButACursor = books
            noOrderButACursor.endAt = Self.cursor([.integer(0)])
            var limitedToNone = noOrderButACursor
            limitedToNone.limit.value = 0
            var refused: [(Query, String)] = [
                (Self.whereFilter(.composite(.and, [.field("x", .notEqual, .integer(1)), .field("y", .notEqual, .integer(2))])),
                 "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."),
                (Self.whereFilter(.composite(.and, [Self.unary("x", .isNotNan), Self.unary("y", .isNotNull)])),
                 "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."),
                (Self.whereFilter(.composite(.and, [.field("x", .in, Self.values(1)), .field("y", .notIn, Self.values(1))])),
                 "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."),
                (Self.whereFilter(.composite(.or, [.field("x", .notIn, Self.values(1)), .field("y", .equal, .integer(1))])),
                 "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."),
                (Self.whereFilter(.composite(.and, [.field("t", .arrayContains, .integer(1)), .field("u", .arrayContainsAny, Self.values(1))])),
                 "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."),
                (Self.whereFilter(.composite(.and, [.field("x", .in, Self.values(6)), .field("y", .in, Self.values(6))])),
                 "Too many disjunctions after normalization. Result had 36 disjunctions which is more than the maximum of 30"),
                (books.filtered("x", .in, .integer(1)), "'IN' requires an ArrayValue."),
                (books.filtered("x", .arrayContainsAny, .array([])), "'ARRAY_CONTAINS_ANY' requires an non-empty ArrayValue."),
                (books.filtered("x", .in, Self.values(31)), "'IN' supports up to 30 comparison values."),
                (books.filtered("x", .notIn, Self.values(11)), "'NOT_IN' supports up to 10 comparison values."),
                (books.filtered("__name__", .arrayContains, a), "the name __key__ is reserved"),
                (books.filtered("__name__", .equal, .string("a")), "__key__ filter value must be a Key"),
                (books.filtered("__name__", .in, .array([.string("a")])), "__key__ filter value must be a Key"),
                (Self.whereFilter(Self.unary("__name__", .isNull)), "__key__ filter value must be a Key"),
                (Self.whereFilter(.composite(.and, (0..<11).map { .field("f\($0)", .greaterThan, .integer(0)) })),
                 "The query contains 11 distinct inequality fields: [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10]. A query may not have more than 10 distinct inequality fields."),
                (books.ordered("x").ordered("x", descending: true), "order by clause cannot contain duplicate fields x"),
                (books.ordered("__name__").ordered("x"), "order by clause cannot contain more fields after the key"),
                (books.filtered("x", .notIn, .array([.integer(1), .null])).ordered("__name__"), "order by clause cannot contain more fields after the key"),
                (books.filtered("x", .notEqual, .integer(1)).ordered("__name__", descending: true), "order by clause cannot contain more fields after the key"),
                (startedWithTooMany, "Cursor has too many values."),
                (limitedToNone, "Cursor has too many values."),
                (books.filtered("x", .greaterThan, .integer(0)).ordered("__name__"), "order by clause cannot contain more fields after the key"),
                (Self.whereFilter(.composite(.and, [.field("t", .arrayContains, .integer(1)), .field("__name__", .arrayContains, a)])),
                 "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."),
                (noOrderButACursor, "Cursor has too many values."),
                (startedByName, "Cursor __key__ value is not a document reference."),
                (Self.whereFilter(.composite(.or, [])), "Composite filter must have at least one sub-filter."),
                (Self.whereFilter(.composite(.and, [.field("__name__", .equal, a), .field("x", .greaterThan, .integer(0))])),
                 "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities."),
                (Self.whereFilter(.composite(.or, [.field("__name__", .in, .array([a])), Self.unary("x", .isNotNull)])),
                 "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities."),
                (Self.whereFilter(.composite(.and, [.field("__name__", .in, .array([a])), .field("x", .notEqual, .double(.nan))])),
                 "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities."),
            ]
            // Where several rules are broken, the emulator names the first of its order.
            var tooManyBesideKeyFilter = Self.whereFilter(.field("__name__", .arrayContains, a))
            tooManyBesideKeyFilter.startAt = Self.cursor([.integer(1)])
            var tooManyBesideDuplicates = books.ordered("x").ordered("x", descending: true)
            tooManyBesideDuplicates.endAt = Self.cursor([.integer(0), .integer(1), .integer(2)])
            var shapeBesideCursor = books.filtered("x", .in, .integer(1))
            shapeBesideCursor.startAt = Self.cursor([.integer(1)])
            let elevenAndTooMany = (0..<11).map { Filter.field("f\($0)", .greaterThan, .integer(0)) } + [.field("p", .in, Self.values(6)), .field("q", .in, Self.values(6))]
            let first: [(Query, String)] = [
                (tooManyBesideKeyFilter, "Cursor has too many values."),
                (tooManyBesideDuplicates, "Cursor has too many values."),
                (shapeBesideCursor, "'IN' requires an ArrayValue."),
                (Self.whereFilter(.composite(.and, [.field("__name__", .equal, .integer(1)), .field("__name__", .arrayContains, a)])),
                 "__key__ filter value must be a Key"),
                (Self.whereFilter(.composite(.and, [.field("__name__", .arrayContains, a), .field("__name__", .in, .array([.integer(1)]))])),
                 "the name __key__ is reserved"),
                (Self.whereFilter(.composite(.and, elevenAndTooMany)),
                 "The query contains 11 distinct inequality fields: [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10]. A query may not have more than 10 distinct inequality fields."),
            ]
            refused += first
            for (query, message) in refused {
                let answer = await status { try await served.run(query) }
                XCTAssertEqual(answer?.0, .invalidArgument, "\(query)")
                XCTAssertEqual(answer?.1, message)
            }
        }
    }

    /// What the emulator answers, and the Firebase SDKs refuse at the call: ours answers too.
    func testAnsweredAsTheEmulatorAnswers() async throws {
        try await ServedStore.with(.folder) { served in
            try await served.commit([served.set("books/a", ["x": .integer(1), "y": .integer(2)]),
                                     served.set("books/b", ["x": .integer(2), "y": .integer(1)])])
            let books = Query.collection("books")
            assertSame(try await served.run(books.filtered("x", .greaterThan, .integer(0)).ordered("y")), ["b", "a"],
                       "an inequality beside an order on another field")
            assertSame(try await served.run(Self.whereFilter(.composite(.and, [.field("x", .greaterThan, .integer(0)), .field("y", .lessThan, .integer(5))]))),
                       ["a", "b"], "inequalities on two fields, ordered by both")
            assertSame(try await served.run(books.filtered("x", .lessThan, .null)), [],
                       "a range over null matches nothing")
            let a = Google_Firestore_V1_Value.reference(served.name("books/a"))
            for nothing in [Filter.field("x", .greaterThan, .null), .field("x", .lessThanOrEqual, .double(.nan)), .field("x", .notEqual, .null)] {
                assertSame(try await served.run(Self.whereFilter(.composite(.and, [.field("__name__", .in, .array([a])), nothing]))), [],
                           "a filter that matches nothing is no inequality beside a name's equality: \(nothing)")
            }
            let elevenWithNothing = (0..<10).map { Filter.field("f\($0)", .greaterThan, .integer(0)) } + [.field("z", .greaterThan, .null)]
            assertSame(try await served.run(Self.whereFilter(.composite(.and, elevenWithNothing))), [],
                       "a filter that matches nothing is no eleventh inequality")
            assertSame(try await served.run(books.filtered("x", .notIn, .array([.null])).ordered("__name__")), [],
                       "a not-in list of null alone matches nothing and is no inequality")
            var otherCollection = books.ordered("__name__")
            otherCollection.startAt = Self.cursor([.reference(served.name("authors/a"))])
            assertSame(try await served.run(otherCollection), ["a", "b"], "a cursor at another collection's document")
            assertSame(try await served.run(books.filtered("x", .equal, .integer(2)).ordered("__name__", descending: true)), ["b"],
                       "a descending name order beside an equality")
            var limitedToNone = books.ordered("__name__", descending: true)
            limitedToNone.limit.value = 0
            var twiceWithCursor = books.ordered("__name__", descending: true).ordered("__name__", descending: true)
            twiceWithCursor.endAt = Self.cursor([.reference(served.name("books/a")), .integer(-2)])
            for query in [books.ordered("__name__", descending: true), limitedToNone, books.ordered("__name__", descending: true).ordered("__name__", descending: true), twiceWithCursor,
                          books.filtered("__name__", .greaterThan, .reference(served.name("books/a"))).ordered("__name__", descending: true)] {
                let answer = await status { try await served.run(query) }
                XCTAssertEqual(answer?.0, .failedPrecondition, "the emulator scans names one way only: \(query)")
                XCTAssertEqual(answer?.1, "Firestore does not support descending key scans")
            }
        }
    }

    /// An array in an array, which no document can hold, is taken in a filter or a cursor as
    /// the emulator takes it (it equals nothing, and sorts as arrays sort); a write holding one
    /// is still refused.
    func testArraysInArraysAreTakenInFiltersAndCursorsNotInDocuments() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/a", ["t": .array([.integer(1)])]), served.set("books/b", ["t": .integer(2)])])
            let nested = Google_Firestore_V1_Value.array([.array([.integer(1)])])
            let books = Query.collection("books")
            assertSame(try await served.run(books.filtered("t", .equal, nested)), [], "\(served.backend)")
            assertSame(try await served.run(books.filtered("t", .in, .array([nested, .integer(2)]))), ["b"], "\(served.backend)")
            assertSame(try await served.run(books.filtered("t", .arrayContainsAny, .array([.array([.integer(1)]), .integer(1)]))), ["a"])
            assertSame(try await served.run(books.filtered("t", .lessThan, nested)), ["a"], "[1] sorts before [[1]]; \(served.backend)")
            var ended = books.ordered("t")
            ended.endAt = Self.cursor([nested])
            assertSame(try await served.run(ended), ["b", "a"], "\(served.backend)")
            let write = await status { try await served.commit([served.set("books/c", ["t": nested])]) }
            XCTAssertEqual(write?.0, .invalidArgument)
        }
    }

    /// A null or NaN operand of a field filter equals nothing, as Google's emulator takes it
    /// (measured); the unary filters still match null and NaN.
    func testANullOrNaNOperandOfAFieldFilterEqualsNothing() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("c/n", ["a": .null]), served.set("c/x", ["a": .integer(1)]),
                                     served.set("c/nan", ["a": .double(.nan)]), served.set("c/none", [:])])
            let c = Query.collection("c")
            var isNull = c
            isNull.where = Self.unary("a", .isNull)
            let cases: [(Query, [String])] = [
                (c.filtered("a", .equal, .null), []),
                (c.filtered("a", .notEqual, .null), []),
                (c.filtered("a", .notEqual, .double(.nan)), ["nan", "x"]),
                (c.filtered("a", .greaterThan, .double(.nan)), []),
                (c.filtered("a", .greaterThanOrEqual, .null).ordered("__name__"), []),
                (c.filtered("a", .in, .array([.null, .integer(1)])), ["x"]),
                (c.filtered("a", .notIn, .array([.double(.nan), .integer(1)])), ["nan"]),
                (c.filtered("a", .notIn, .array([.null, .integer(1)])), []),
                (isNull, ["n"]),
            ]
            for (query, expected) in cases {
                assertSame(try await served.run(query), expected, "\(query.where); \(served.backend)")
            }
            // The rules on how filters combine judge them as sent.
            let refused: [(Query, String)] = [
                (c.filtered("a", .in, .array([.null] + (0..<30).map { .integer(Int64($0)) })), "'IN' supports up to 30 comparison values."),
                (Self.whereFilter(.composite(.and, [.field("a", .notEqual, .null), .field("b", .notEqual, .integer(1))])),
                 "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."),
                (Self.whereFilter(.composite(.or, [.field("a", .notIn, .array([.null])), .field("b", .equal, .integer(1))])),
                 "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."),
            ]
            for (query, message) in refused {
                let answer = await status { try await served.run(query) }
                XCTAssertEqual(answer?.1, message, "\(served.backend)")
            }
        }
    }
}

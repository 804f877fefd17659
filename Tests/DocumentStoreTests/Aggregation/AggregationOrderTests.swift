@testable import DocumentStore
import Foundation
import XCTest

/// Which documents a sum or an average takes when a limit or an offset cuts the query: Firestore
/// orders by the aggregated fields (after the query's own orders, before the document id). Each
/// expected value was measured on Google's emulator with the same documents.
final class AggregationOrderTests: StoreTestCase {
    private var numbers: CollectionReference { db.collection("numbers") }

    /// x by document: a 5, b 1, c 3, d 2.5, e "text", f null, g 4, and h without x; y is the
    /// id's letter code (97 for a), z its negative.
    override func setUpWithError() throws {
        try super.setUpWithError()
        let xs: [(String, Any)] = [("a", 5), ("b", 1), ("c", 3), ("d", 2.5), ("e", "text"), ("f", NSNull()), ("g", 4)]
        for (id, x) in xs {
            let code = Int(id.unicodeScalars.first!.value)
            try numbers.document(id).write(["x": x, "y": code, "z": -code])
        }
        try numbers.document("h").write(["y": 1])
    }

    private func results(_ query: Query, _ fields: [AggregateField]) async throws -> [FirestoreValue] {
        let snapshot = try await query.aggregate(fields).getAggregation(source: .server)
        return try fields.map { try snapshot.result(for: $0) }
    }

    func testALimitTakesTheDocumentsFirstByTheSummedField() async throws {
        // By x: f (null), b 1, d 2.5, c 3, g 4, a 5, e "text".
        let firstTwo = try await results(numbers.limit(to: 2), [.sum("x")])
        XCTAssertEqual(firstTwo, [.integer(1)], "f and b, not a and b by id")
        let firstThree = try await results(numbers.limit(to: 3), [.average("x")])
        XCTAssertEqual(firstThree, [.double(1.75)])
        let counted = try await results(numbers.limit(to: 3), [.count(), .sum("x")])
        XCTAssertEqual(counted, [.integer(3), .double(3.5)])
        let afterFive = try await results(numbers.offset(5), [.sum("x")])
        XCTAssertEqual(afterFive, [.integer(5)], "a and e")
        let countAlone = try await results(numbers.offset(5), [.count()])
        XCTAssertEqual(countAlone, [.integer(3)], "count() alone orders by nothing more and counts h too")
    }

    func testTheQuerysOwnOrdersAndInequalitiesComeFirst() async throws {
        let byY = try await results(numbers.order(by: "y").limit(to: 2), [.sum("x")])
        XCTAssertEqual(byY, [.integer(6)], "a and b (h has no x)")
        let byYDescending = try await results(numbers.order(by: "y", descending: true).limit(to: 2), [.sum("x")])
        XCTAssertEqual(byYDescending, [.integer(4)], "g and f")
        let belowZ = try await results(numbers.whereField("z", isLessThan: -99).limit(to: 2), [.sum("x")])
        XCTAssertEqual(belowZ, [.integer(4)], "by z first: g and f")
    }

    func testSeveralFieldsAreOrderedInFieldOrder() async throws {
        let yThenX = try await results(numbers.limit(to: 2), [.average("y"), .sum("x")])
        XCTAssertEqual(yThenX, [.double(100), .integer(1)], "by x, then y: f and b")
        let zThenX = try await results(numbers.limit(to: 2), [.average("z"), .sum("x")])
        XCTAssertEqual(zThenX, [.double(-100), .integer(1)])
        let zAlone = try await results(numbers.limit(to: 2), [.sum("z")])
        XCTAssertEqual(zAlone, [.integer(-205)], "g and f")
    }

    func testTheFieldsFollowTheLastOrdersDirection() async throws {
        let ties = db.collection("ties")
        for (id, x) in [("p", 1), ("q", 3), ("r", 2)] { try ties.document(id).write(["y": 1, "x": x]) }
        let descending = try await results(ties.order(by: "y", descending: true).limit(to: 1), [.sum("x")])
        XCTAssertEqual(descending, [.integer(3)], "x descending, not r by id descending")
        let ascending = try await results(ties.order(by: "y").limit(to: 1), [.sum("x")])
        XCTAssertEqual(ascending, [.integer(1)])
        let skipped = try await results(ties.order(by: "y", descending: true).offset(2), [.sum("x")])
        XCTAssertEqual(skipped, [.integer(1)])
    }

    func testAFieldAfterAnExplicitDocumentIDOrderIsRefused() async throws {
        let error = await thrownError {
            _ = try await self.numbers.order(by: "y").order(by: FieldPath.documentID()).aggregate([.sum("x")]).getAggregation(source: .server)
        }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual((error as? FirestoreErrorCode)?.description, "This query requires an index that has fields [x] after __name__ and Firestore "
            + "does not currently support such an index. Please try the query again with additional ordering on those fields.")
        let counted = try await results(numbers.order(by: "y").order(by: FieldPath.documentID()), [.count()])
        XCTAssertEqual(counted, [.integer(8)])
    }
}

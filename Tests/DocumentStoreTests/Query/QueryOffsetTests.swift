@testable import DocumentStore
import Foundation
import XCTest

/// `Query.offset` (ours, the protocol's `StructuredQuery.offset`): the results after the first
/// `count`, in the query's order, before its limit, whichever way the page is made; refused
/// where it means nothing.
final class QueryOffsetTests: StoreTestCase {
    private var numbers: CollectionReference { db.collection("numbers") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let batch = db.batch()
        for n in 0..<30 { batch.setData(["n": n, "odd": n % 2 == 1], forDocument: numbers.document(String(format: "d%02d", n))) }
        try batch.commitNow()
    }

    private func values(_ query: Query) async throws -> [Int] {
        try await query.getDocuments().documents.compactMap { $0.get("n") as? Int }
    }

    func testAnOffsetSkipsTheFirstResultsBeforeTheLimit() async throws {
        let page = try await values(numbers.order(by: "n", descending: true).offset(5).limit(to: 3))
        XCTAssertEqual(page, [24, 23, 22])
        let odd = try await values(numbers.whereField("odd", isEqualTo: true).order(by: "n").offset(2).limit(to: 2))
        XCTAssertEqual(odd, [5, 7], "skipped among the matches")
        let rest = try await values(numbers.order(by: "n").offset(27))
        XCTAssertEqual(rest, [27, 28, 29])
        let large = try await values(numbers.order(by: "n").offset(10).limit(to: 2000))
        XCTAssertEqual(large, Array(10..<30), "a limit too large to keep while scanning")
        let past = try await values(numbers.order(by: "n").offset(40).limit(to: 3))
        XCTAssertEqual(past, [])
    }

    func testAnOffsetAmongValuesAServerOrdersOnlyByKindSkipsTheRightOnes() async throws {
        // A server orders timestamps and numbers past 2^53 loosely: its skip must be checked.
        let loose = db.collection("loose")
        let batch = db.batch()
        for n in [7, 2, 9, 4, 0, 5, 1, 8, 3, 6] {
            batch.setData(["n": n, "at": Timestamp(seconds: Int64(n) * 1000, nanoseconds: 0), "big": (1 << 60) + n],
                          forDocument: loose.document("d\(9 - n)"))
        }
        try batch.commitNow()
        let byTime = try await values(loose.order(by: "at").offset(4).limit(to: 3))
        XCTAssertEqual(byTime, [4, 5, 6])
        let lastByTime = try await values(loose.order(by: "at").offset(7).limit(to: 5))
        XCTAssertEqual(lastByTime, [7, 8, 9], "fewer than the limit are left, and they are the last ones")
        let firstByTime = try await values(loose.order(by: "at").offset(7).limit(toLast: 5))
        XCTAssertEqual(firstByTime, [0, 1, 2], "the same from the end")
        let byBig = try await values(loose.order(by: "big", descending: true).offset(1).limit(to: 2))
        XCTAssertEqual(byBig, [8, 7])
    }

    func testAnOffsetSkipsOnceWhenTheResultsComeFromAListenersMemory() async throws {
        let listened = expectation(description: "the collection is listened to")
        let registration = numbers.addSnapshotListener { snapshot, _ in if snapshot != nil { listened.fulfill() } }
        await fulfillment(of: [listened], timeout: 30)
        defer { registration.remove() }
        let page = try await values(numbers.order(by: "n").offset(10).limit(to: 3))
        XCTAssertEqual(page, [10, 11, 12])
        let group = try await values(db.collectionGroup("numbers").order(by: "n").offset(28))
        XCTAssertEqual(group, [28, 29])
    }

    func testACountAfterAnOffsetCountsWhatIsLeft() async throws {
        let count = try await numbers.offset(25).count.getAggregation(source: .server).count.intValue
        XCTAssertEqual(count, 5)
    }

    func testWithLimitToLastAnOffsetSkipsTheLastResults() async throws {
        let page = try await values(numbers.order(by: "n").offset(2).limit(toLast: 3))
        XCTAssertEqual(page, [25, 26, 27])
        let large = try await values(numbers.order(by: "n").offset(25).limit(toLast: 2000))
        XCTAssertEqual(large, [0, 1, 2, 3, 4], "a limit too large to keep while scanning")
        let odd = try await values(numbers.whereField("odd", isEqualTo: true).order(by: "n", descending: true).offset(1).limit(toLast: 2))
        XCTAssertEqual(odd, [5, 3], "skipped among the matches, in the query's order")
        let count = try await numbers.order(by: "n").offset(28).limit(toLast: 5).count.getAggregation(source: .server).count.intValue
        XCTAssertEqual(count, 2)
    }

    func testANegativeOffsetAndListeningToAnOffsetAreRefused() async throws {
        XCTAssertNotNil(numbers.offset(-1).refusal)
        let refused = expectation(description: "the listener is told why")
        let registration = numbers.offset(2).addSnapshotListener { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertTrue("\(error.map { "\($0)" } ?? "")".contains("cannot be listened to"))
            refused.fulfill()
        }
        await fulfillment(of: [refused], timeout: 30)
        registration.remove()
    }
}

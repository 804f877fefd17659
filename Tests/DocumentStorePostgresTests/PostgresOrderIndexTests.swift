@testable import DocumentStore
import Foundation
import XCTest

/// The first page ordered by a field makes that field's index and has the planner learn it, so
/// the next pages read the index instead of sorting the collection (which PostgreSQL would do,
/// guessing from no statistics, after a bulk load that autovacuum has not yet looked at).
final class PostgresOrderIndexTests: PostgresTestCase {
    func testTheFirstPageByAFieldMakesItsIndexAndTheStatisticsOfItsExpressions() async throws {
        let batch = db.batch()
        for index in 0..<300 { batch.setData(["rating": index % 7, "title": "t\(index)"], forDocument: db.document("books/b\(index)")) }
        try batch.commitNow()
        let orderIndexes = "SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'shelf\\_order\\_%'"
        XCTAssertEqual(try sql(orderIndexes), "0")
        let page = try await db.collection("books").order(by: "rating", descending: true).limit(to: 5).getDocuments()
        XCTAssertEqual(page.documents.map { $0.get("rating") as? Int }, [6, 6, 6, 6, 6])
        XCTAssertEqual(try sql(orderIndexes), "1", "the index is made")
        XCTAssertNotEqual(try sql("SELECT count(*) FROM pg_stats WHERE tablename LIKE 'shelf\\_order\\_%'"), "0",
                          "the planner has statistics of the index's expressions")
    }
}

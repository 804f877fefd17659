@testable import DocumentStore
import Foundation
import XCTest

/// A one-off query on a collection being listened to is answered from the watcher's memory
/// (its `DocumentTable`, whose columns are kept in step with each change); it must give what
/// reading the files gives, ties, missing fields, other types, cursors and limits included.
final class ListenedQueryTests: QueryTestCase {
    private var books: CollectionReference { db.collection("books") }

    /// The same documents read by another `Firestore` with no listener.
    private func fromFiles(_ query: (CollectionReference) -> Query) throws -> [String] {
        let other = try store.openAnother()
        return try query(other.collection("books")).readSnapshot().documents.map(\.documentID)
    }

    private let queries: [(String, (CollectionReference) -> Query)] = [
        ("top 5 by score (strings first)", { $0.order(by: "score", descending: true).limit(to: 5) }),
        ("top 5 numbers", { $0.whereField("score", isLessThan: 100_000).order(by: "score", descending: true).limit(to: 5) }),
        ("first 5", { $0.order(by: "score").limit(to: 5) }),
        ("filtered, ascending", { $0.whereField("score", isGreaterThan: 10).order(by: "score").limit(to: 7) }),
        ("last 4", { $0.order(by: "score").limit(toLast: 4) }),
        ("two orders", { $0.order(by: "group").order(by: "score", descending: true).limit(to: 6) }),
        ("cursor", { $0.order(by: "score").start(after: [20]).limit(to: 3) }),
        ("filter on another field", { $0.whereField("group", isEqualTo: "b").order(by: "score", descending: true).limit(to: 4) }),
        ("all, by id", { $0.limit(to: 9) }),
    ]

    private func checkAll(_ moment: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (name, query) in queries {
            let expected = try fromFiles(query)
            XCTAssertFalse(expected.isEmpty, "\(moment), \(name): the files give results", file: file, line: line)
            XCTAssertEqual(ids(query(books)), expected, "\(moment), \(name)", file: file, line: line)
        }
    }

    func testALimitedQueryFromMemoryGivesWhatTheFilesGive() throws {
        var documents: [String: [String: Any]] = [:]
        for index in 0..<300 {
            var data: [String: Any] = ["group": ["a", "b", "c"][index % 3]]
            if index % 50 != 7 { data["score"] = index % 50 == 9 ? "text" as Any : (index % 37) as Any }
            documents[String(format: "d%03d", index)] = data
        }
        try seed("books", documents)
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(books.addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.documents.count, 300)
        try checkAll("at first")

        try books.document("d100").update(["score": 99])  // into the top
        try books.document("d036").deleteDocument()            // out of it (score 36, the highest)
        try books.document("new").write(["score": 36.5, "group": "b"])
        try books.document("d002").update(["score": -1])       // first
        try checkAll("after writes through the store")

        try store.writeFile("books/d001.json", #"{"score": 1000, "group": "b"}"#)
        try store.deleteFile("books/d073.json")
        try checkAll("after changes by another program")
    }
}

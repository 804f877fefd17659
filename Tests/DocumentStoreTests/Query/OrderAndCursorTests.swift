@testable import DocumentStore
import Foundation
import XCTest

/// Orders (several fields, Firestore's type order, implicit orders with ties broken by id in
/// the direction of the last order), limits, and cursors by values and by snapshot; the paged
/// leaderboard of the acceptance, ties included.
final class OrderAndCursorTests: QueryTestCase {
    private var scores: CollectionReference { db.collection("scores") }

    func testTiesBreakByIdInTheDirectionOfTheLastOrder() throws {
        try seed("scores", ["a": ["score": 1], "b": ["score": 1], "c": ["score": 1]])
        XCTAssertEqual(ids(scores.order(by: "score", descending: true).limit(to: 1)), ["c"])
        XCTAssertEqual(ids(scores.order(by: "score", descending: true)), ["c", "b", "a"])
        XCTAssertEqual(ids(scores.order(by: "score")), ["a", "b", "c"])
    }

    func testFirestoresTypeOrder() throws {
        try seed("types", [
            "null": ["v": NSNull()], "bool": ["v": false], "number": ["v": 1.5], "time": ["v": Timestamp(seconds: 0, nanoseconds: 0)],
            "string": ["v": "a"], "bytes": ["v": Data([1])], "ref": ["v": db.document("a/b")],
            "geo": ["v": GeoPoint(latitude: 1, longitude: 1)], "array": ["v": [1]], "map": ["v": ["a": 1]],
        ])
        XCTAssertEqual(ids(db.collection("types").order(by: "v")),
                       ["null", "bool", "number", "time", "string", "bytes", "ref", "geo", "array", "map"])
    }

    func testWithinTypes() throws {
        try seed("within", [
            "t1": ["t": Timestamp(seconds: 19, nanoseconds: 900_000_000)], "t2": ["t": Timestamp(seconds: 20, nanoseconds: 500_000_000)],
            "t3": ["t": Timestamp(seconds: 20, nanoseconds: 0)], "s1": ["s": "é"], "s2": ["s": "z"],
            "b1": ["b": Data([0xFF])], "b2": ["b": Data([0x01, 0xFF])],
        ])
        let within = db.collection("within")
        XCTAssertEqual(ids(within.order(by: "t")), ["t1", "t3", "t2"])
        XCTAssertEqual(ids(within.order(by: "s")), ["s2", "s1"], "strings by UTF-8 bytes: é (C3 A9) after z")
        XCTAssertEqual(ids(within.order(by: "b")), ["b2", "b1"], "bytes by bytes, not base64")
    }

    func testSeveralOrdersAndImplicitInequalityOrder() throws {
        try seed("books", [
            "a": ["genre": "sf", "pages": 300], "b": ["genre": "sf", "pages": 100], "c": ["genre": "drama", "pages": 200],
            "d": ["genre": "drama", "pages": 200], "e": ["pages": 50],
        ])
        let books = db.collection("books")
        XCTAssertEqual(ids(books.order(by: "genre").order(by: "pages", descending: true)), ["d", "c", "a", "b"])
        XCTAssertEqual(ids(books.whereField("pages", isGreaterThan: 60)), ["b", "c", "d", "a"], "ordered by the inequality field")
        XCTAssertEqual(ids(books.whereField("pages", isGreaterThan: 60).order(by: "genre", descending: true)), ["a", "b", "d", "c"],
                       "then pages and id, descending like the last order")
#if SHELF_REMOTE_TESTS
        // A served query ordered by name descending is refused, as Google's emulator refuses it.
        XCTAssertThrowsError(try books.order(by: FieldPath.documentID(), descending: true).readSnapshot())
#else
        XCTAssertEqual(ids(books.order(by: FieldPath.documentID(), descending: true)), ["e", "d", "c", "b", "a"])
#endif
    }

    func testLimitToLastKeepsTheQueryOrder() throws {
        try seed("scores", ["a": ["score": 1], "b": ["score": 2], "c": ["score": 3], "d": ["score": 4]])
        XCTAssertEqual(ids(scores.order(by: "score").limit(toLast: 2)), ["c", "d"])
        XCTAssertEqual(ids(scores.order(by: "score", descending: true).limit(toLast: 3)), ["c", "b", "a"])
        XCTAssertEqual(ids(scores.order(by: "score").limit(to: 3)), ["a", "b", "c"])
    }

    func testCursorsByValues() throws {
        try seed("scores", ["a": ["score": 1], "b": ["score": 2], "c": ["score": 2], "d": ["score": 3], "e": ["score": 4]])
        let byScore = scores.order(by: "score")
        XCTAssertEqual(ids(byScore.start(at: [2])), ["b", "c", "d", "e"])
        XCTAssertEqual(ids(byScore.start(after: [2])), ["d", "e"])
        XCTAssertEqual(ids(byScore.end(at: [2])), ["a", "b", "c"])
        XCTAssertEqual(ids(byScore.end(before: [2])), ["a"])
        XCTAssertEqual(ids(byScore.start(at: [2]).end(before: [4])), ["b", "c", "d"])
        XCTAssertEqual(ids(scores.order(by: "score").order(by: FieldPath.documentID()).start(after: [2, "b"])), ["c", "d", "e"])
        XCTAssertEqual(ids(scores.order(by: "score", descending: true).start(at: [2])), ["c", "b", "a"])
        XCTAssertEqual(ids(byScore.start(after: [2]).limit(toLast: 1)), ["e"])
    }

    func testCursorsBySnapshotUseEveryOrderIncludingTheId() throws {
        try seed("scores", ["a": ["score": 1], "b": ["score": 2], "c": ["score": 2], "d": ["score": 3]])
        let b = try scores.document("b").readSnapshot()
        let byScore = scores.order(by: "score")
        XCTAssertEqual(ids(byScore.start(atDocument: b)), ["b", "c", "d"])
        XCTAssertEqual(ids(byScore.start(afterDocument: b)), ["c", "d"], "c ties with b and comes after it by id")
        XCTAssertEqual(ids(byScore.end(atDocument: b)), ["a", "b"])
        XCTAssertEqual(ids(byScore.end(beforeDocument: b)), ["a"])
        XCTAssertEqual(ids(scores.start(afterDocument: b)), ["c", "d"], "no explicit order: by id")
    }

    /// The acceptance: pages of 10, highest points first, ties by id descending, never a
    /// document twice or missed.
    func testPagedLeaderboardWithTies() async throws {
        var players: [String: [String: Any]] = [:]
        for i in 0..<25 { players[String(format: "p%02d", i)] = ["points": i % 7] }  // many ties; 0 points are left out
        try seed("players", players)
        let leaderboard = db.collection("players").whereField("points", isGreaterThan: 0).order(by: "points", descending: true).limit(to: 10)
        let first = try await leaderboard.getDocuments()
        let last = try XCTUnwrap(first.documents.last)
        let second = try await leaderboard.start(afterDocument: last).getDocuments()
        let third = try await leaderboard.start(afterDocument: try XCTUnwrap(second.documents.last)).getDocuments()
        let all = (first.documents + second.documents + third.documents).map(\.documentID)
        let expected = players.filter { ($0.value["points"] as! Int) > 0 }
            .sorted { a, b in
                let (x, y) = (a.value["points"] as! Int, b.value["points"] as! Int)
                return x != y ? x > y : a.key > b.key
            }.map(\.key)
        XCTAssertEqual(first.count, 10)
        XCTAssertEqual(second.count, 10)
        XCTAssertEqual(all, expected)
        XCTAssertEqual(Array(all.prefix(3)), ["p20", "p13", "p06"])
    }
}

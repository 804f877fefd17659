@testable import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import XCTest

/// The one `StructuredQuery` codec: a query as the client sends it, read back as the server
/// reads it and sent again, is the same message: no operator, direction or cursor is mapped
/// one way and not the other.
final class StructuredQueryCodecTests: XCTestCase {
    private var folder: URL!
    private var db: Firestore!
    private var values: WireValues!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("codec-\(UUID().uuidString)")
        db = try Firestore(directory: folder)
        values = WireValues(databaseName: "projects/p/databases/(default)", store: db)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sent, read and sent again: the same message.
    private func assertRoundTrip(_ query: Query, file: StaticString = #filePath, line: UInt = #line) throws {
        let sent = StructuredQueryCodec(query.definition, values: values)
        var base: Query
        switch query.definition.source {
        case .collection(let path): base = db.collection(path.description)
        case .group(let id): base = db.collectionGroup(id)
        }
        var read = try StructuredQueryCodec.applying(sent.query, to: base.checkedAsTheBackendOnly, values: values)
        let (offset, limit) = try StructuredQueryCodec.offsetAndLimit(sent.query)
        if offset > 0 { read = read.offset(offset) }
        if let limit { read = read.limit(to: limit) }
        let again = StructuredQueryCodec(read.definition, values: values)
        XCTAssertEqual(again.query, sent.query, "\(query.definition)", file: file, line: line)
        XCTAssertEqual(again.parent, sent.parent, file: file, line: line)
    }

    func testEveryFieldOperatorRoundTrips() throws {
        let books = db.collection("books")
        try assertRoundTrip(books.whereField("pages", isEqualTo: 300))
        try assertRoundTrip(books.whereField("pages", isNotEqualTo: 300))
        try assertRoundTrip(books.whereField("pages", isLessThan: 300))
        try assertRoundTrip(books.whereField("pages", isLessThanOrEqualTo: 300))
        try assertRoundTrip(books.whereField("pages", isGreaterThan: 300))
        try assertRoundTrip(books.whereField("pages", isGreaterThanOrEqualTo: 300))
        try assertRoundTrip(books.whereField("tags", arrayContains: "sf"))
        try assertRoundTrip(books.whereField("tags", arrayContainsAny: ["sf", "classic"]))
        try assertRoundTrip(books.whereField("author", in: ["Herbert", "Le Guin"]))
        try assertRoundTrip(books.whereField("author", notIn: ["Herbert", [1, 2]]))
        try assertRoundTrip(books.whereField(FieldPath.documentID(), isEqualTo: "dune"))
        try assertRoundTrip(books.whereField("cover.color", isEqualTo: "red").whereField("`odd.name`", isGreaterThan: 1))
    }

    func testUnaryFiltersRoundTrip() throws {
        let books = db.collection("books")
        try assertRoundTrip(books.whereField("subtitle", isEqualTo: NSNull()))
        try assertRoundTrip(books.whereField("subtitle", isNotEqualTo: NSNull()))
        try assertRoundTrip(books.whereField("rating", isEqualTo: Double.nan))
        try assertRoundTrip(books.whereField("rating", isNotEqualTo: Double.nan))
    }

    func testCompositeFiltersOrdersCursorsAndWindowsRoundTrip() throws {
        let books = db.collection("books")
        try assertRoundTrip(books.whereFilter(.orFilter([
            .whereField("author", isEqualTo: "Herbert"),
            .andFilter([.whereField("pages", isGreaterThan: 100), .whereField("pages", isLessThan: 500)]),
        ])))
        try assertRoundTrip(books.order(by: "pages", descending: true).order(by: "title").start(at: [300, "Dune"]).end(before: [100, "A"]))
        try assertRoundTrip(books.order(by: "pages").start(after: [300]).end(at: [900]).limit(to: 10).offset(5))
        try assertRoundTrip(db.collectionGroup("reviews").whereField("stars", isGreaterThanOrEqualTo: 4).limit(to: 3))
        try assertRoundTrip(db.collection("books/dune/reviews").order(by: "stars"))
    }

    /// A query limited to its last documents is sent reversed, as Firebase's SDK sends it.
    func testALimitToLastIsSentReversed() throws {
        let query = db.collection("books").order(by: "pages").start(at: [100]).end(at: [900]).limit(toLast: 2)
        let sent = StructuredQueryCodec(query.definition, values: values)
        XCTAssertTrue(sent.isReversed)
        XCTAssertEqual(sent.query.orderBy.map(\.direction), [.descending, .descending])
        XCTAssertEqual(sent.query.startAt.values.first?.integerValue, 900, "the end is the start")
        XCTAssertEqual(sent.query.endAt.values.first?.integerValue, 100)
    }

    /// Null in a list matches nothing on Firestore's backend: the server runs the list without
    /// it, and judges the query as sent.
    func testNullInAnInListIsDroppedFromWhatRuns() throws {
        let sent = StructuredQueryCodec(db.collection("books").whereField("author", in: [NSNull(), "Herbert"]).definition, values: values)
        let read = try StructuredQueryCodec.applying(sent.query, to: db.collection("books").checkedAsTheBackendOnly, values: values)
        let again = StructuredQueryCodec(read.definition, values: values)
        XCTAssertEqual(again.query.where.fieldFilter.value.arrayValue.values.map(\.stringValue), ["Herbert"])
        XCTAssertEqual(read.definition.sentFilters?.count, 1, "judged as sent")
    }
}

@testable import DocumentStore
import Foundation
import XCTest

/// `loadBundle(_:)` and `getQuery(named:)`: a bundle (length-prefixed JSON elements: metadata,
/// named queries, document metadata, documents in the REST API's JSON) is written into the
/// store through its commit path, with Firebase's progress reports, and its named queries kept.
final class BundleTests: StoreTestCase {
    /// A bundle of these elements (JSON objects, as text) after a metadata element that counts
    /// them as Firebase's bundle builder does.
    private func bundle(_ elements: [String], documents: Int, id: String = "test-bundle") -> Data {
        func framed(_ json: String) -> String { "\(json.utf8.count)\(json)" }
        let body = elements.map(framed).joined()
        let metadata = #"{"metadata":{"id":"\#(id)","createTime":{"seconds":"1","nanos":0},"version":1,"totalDocuments":\#(documents),"totalBytes":\#(body.utf8.count)}}"#
        return Data((framed(metadata) + body).utf8)
    }

    private func name(_ path: String, database: String = "(default)") -> String {
        "projects/test-project/databases/\(database)/documents/\(path)"
    }

    /// A document that exists, as two elements: its metadata and itself.
    private func document(_ path: String, _ fields: String, readTime: String = "2100-01-01T00:00:00Z") -> [String] {
        [#"{"documentMetadata":{"name":"\#(name(path))","readTime":"\#(readTime)","exists":true,"queries":["all"]}}"#,
         #"{"document":{"name":"\#(name(path))","fields":\#(fields),"createTime":"2020-01-01T00:00:00Z","updateTime":"2020-01-02T00:00:00Z"}}"#]
    }

    private var booksQuery: String {
        #"{"namedQuery":{"name":"long-books","readTime":"2100-01-01T00:00:00Z","bundledQuery":{"parent":"\#(name("").dropLast())","structuredQuery":{"from":[{"collectionId":"books"}],"where":{"fieldFilter":{"field":{"fieldPath":"pages"},"op":"GREATER_THAN","value":{"integerValue":"100"}}},"orderBy":[{"field":{"fieldPath":"pages"},"direction":"DESCENDING"}],"limit":{"value":5}},"limitType":"FIRST"}}}"#
    }

    private var twoBooks: Data {
        bundle([booksQuery]
            + document("books/dune", #"{"title":{"stringValue":"Dune"},"pages":{"integerValue":"412"},"published":{"timestampValue":"1965-08-01T00:00:00Z"}}"#)
            + document("books/emma", #"{"title":{"stringValue":"Emma"},"pages":{"integerValue":"90"},"shelf":{"referenceValue":"\#(name("shelves/classics"))"}}"#),
            documents: 2)
    }

    func testLoadingABundleWritesItsDocumentsAndEndsInSuccess() async throws {
        let progress = try await db.loadBundle(twoBooks)
        XCTAssertEqual(progress.state, .success)
        XCTAssertEqual(progress.documentsLoaded, 2)
        XCTAssertEqual(progress.totalDocuments, 2)
        XCTAssertEqual(progress.bytesLoaded, progress.totalBytes)
        let dune = try await db.document("books/dune").getDocument()
        XCTAssertEqual(dune.get("title") as? String, "Dune")
        XCTAssertEqual(dune.get("pages") as? Int64, 412)
        XCTAssertEqual(dune.get("published") as? Timestamp, Timestamp(rfc3339: "1965-08-01T00:00:00Z"))
        let emma = try await db.document("books/emma").getDocument()
        XCTAssertEqual((emma.get("shelf") as? DocumentReference)?.path, "shelves/classics")
    }

    func testEveryKindOfValueReadsAsFirestoresOwn() async throws {
        let fields = #"{"n":{"nullValue":null},"b":{"booleanValue":true},"i":{"integerValue":"-9007199254740993"},"d":{"doubleValue":"NaN"},"s":{"stringValue":"é"},"bytes":{"bytesValue":"AAEC"},"g":{"geoPointValue":{"latitude":51.5,"longitude":-0.12}},"a":{"arrayValue":{"values":[{"integerValue":1},{"stringValue":"x"}]}},"empty":{"arrayValue":{}},"m":{"mapValue":{"fields":{"inner":{"doubleValue":1.5}}}},"t":{"timestampValue":{"seconds":"10","nanos":5000}}}"#
        _ = try await db.loadBundle(bundle(document("kinds/all", fields), documents: 1))
        let stored = try storedFields("kinds/all")
        XCTAssertEqual(stored["n"], .null)
        XCTAssertEqual(stored["b"], .boolean(true))
        XCTAssertEqual(stored["i"], .integer(-9_007_199_254_740_993))
        XCTAssertEqual(stored["d"], .double(.nan))
        XCTAssertEqual(stored["s"], .string("é"))
        XCTAssertEqual(stored["bytes"], .bytes(Data([0, 1, 2])))
        XCTAssertEqual(stored["g"], .geoPoint(GeoPoint(latitude: 51.5, longitude: -0.12)))
        XCTAssertEqual(stored["a"], .array([.integer(1), .string("x")]))
        XCTAssertEqual(stored["empty"], .array([]))
        XCTAssertEqual(stored["m"], .map(Fields(["inner": .double(1.5)])))
        XCTAssertEqual(stored["t"], .timestamp(Timestamp(seconds: 10, nanoseconds: 5000)))
    }

    func testObserversHearEachDocumentThenSuccessAndTheCompletionRunsLast() throws {
        let heard = Locked<[String]>([])
        let finished = expectation(description: "completion")
        let task = db.loadBundle(twoBooks) { progress, error in
            XCTAssertNil(error)
            XCTAssertEqual(progress?.state, .success)
            heard.withLock { $0.append("completion") }
            finished.fulfill()
        }
        task.addObserver { progress in heard.withLock { $0.append("\(progress.state.rawValue):\(progress.documentsLoaded)") } }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(heard.withLock { $0 }, ["1:0", "1:2", "2:2", "completion"])
    }

    func testAnObserverAddedLateHearsTheEarlierReportsFirst() throws {
        let finished = expectation(description: "completion")
        let task = db.loadBundle(twoBooks) { _, _ in finished.fulfill() }
        wait(for: [finished], timeout: 10)
        let heard = expectation(description: "the reports")
        heard.expectedFulfillmentCount = 3
        let states = Locked<[LoadBundleTaskState]>([])
        task.addObserver { progress in
            states.withLock { $0.append(progress.state) }
            heard.fulfill()
        }
        wait(for: [heard], timeout: 10)
        XCTAssertEqual(states.withLock { $0 }, [.inProgress, .inProgress, .success])
    }

    func testARemovedObserverHearsNothing() throws {
        let heard = Locked(0)
        let finished = expectation(description: "completion")
        // On the callback queue, so no report is delivered between adding and removing.
        store.callbackQueue.sync {
            let task = db.loadBundle(twoBooks) { _, _ in finished.fulfill() }
            let handle = task.addObserver { _ in heard.withLock { $0 += 1 } }
            task.removeObserverWith(handle: handle)
            task.addObserver { _ in heard.withLock { $0 += 100 } }
            task.removeAllObservers()
        }
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(heard.withLock { $0 }, 0)
    }

    func testTaskProgressStreamsEachReportAndEndsAfterSuccess() async throws {
        var states: [LoadBundleTaskState] = []
        for try await progress in db.loadBundle(twoBooks).taskProgress { states.append(progress.state) }
        XCTAssertEqual(states.last, .success)
    }

    func testGetQueryNamedGivesTheBundlesQuery() async throws {
        _ = try await db.loadBundle(twoBooks)
        try await db.document("books/hobbit").setData(["pages": 310])
        let named = await db.getQuery(named: "long-books")
        let query = try XCTUnwrap(named)
        XCTAssertEqual(query, db.collection("books").whereField("pages", isGreaterThan: 100).order(by: "pages", descending: true).limit(to: 5))
        let found = try await query.getDocuments()
        XCTAssertEqual(found.documents.map(\.documentID), ["dune", "hobbit"])
        let missing = await db.getQuery(named: "no-such-query")
        XCTAssertNil(missing)
    }

    func testALimitToLastQueryAndCursorsReadBackAsWritten() async throws {
        let named = #"{"namedQuery":{"name":"last","readTime":"2100-01-01T00:00:00Z","bundledQuery":{"parent":"\#(name(""))","structuredQuery":{"from":[{"collectionId":"books"}],"orderBy":[{"field":{"fieldPath":"`a.b`"}}],"startAt":{"values":[{"integerValue":"1"}],"before":true},"endAt":{"values":[{"integerValue":"9"}]},"limit":2},"limitType":"LAST"}}}"#
        _ = try await db.loadBundle(bundle([named], documents: 0))
        let kept = await db.getQuery(named: "last")
        let query = try XCTUnwrap(kept)
        XCTAssertEqual(query, db.collection("books").order(by: FieldPath(["a.b"])).start(at: [1]).end(at: [9]).limit(toLast: 2))
    }

    func testADocumentChangedHereAfterTheBundleReadItIsKept() async throws {
        try await db.document("books/dune").setData(["title": "Dune, my edition"])
        let old = bundle(document("books/dune", #"{"title":{"stringValue":"Dune"}}"#, readTime: "2020-01-01T00:00:00Z"), documents: 1)
        let progress = try await db.loadBundle(old)
        XCTAssertEqual(progress.state, .success)
        let kept = try await db.document("books/dune").getDocument()
        XCTAssertEqual(kept.get("title") as? String, "Dune, my edition")
    }

    func testADocumentTheBundleSaysIsGoneIsDeletedWhenTheBundleIsNewer() async throws {
        try await db.document("books/gone").setData(["title": "Gone"])
        let missing = #"{"documentMetadata":{"name":"\#(name("books/gone"))","readTime":"2100-01-01T00:00:00Z","exists":false}}"#
        _ = try await db.loadBundle(bundle([missing], documents: 1))
        let read = try await db.document("books/gone").getDocument()
        XCTAssertFalse(read.exists)
    }

    func testLoadingFromAnInputStream() async throws {
        let progress = try await db.loadBundle(InputStream(data: twoBooks))
        XCTAssertEqual(progress.documentsLoaded, 2)
        let dune = try await db.document("books/dune").getDocument()
        XCTAssertTrue(dune.exists)
    }

    func testACorruptBundleFailsNamingWhatIsWrongAndWritesNothing() async throws {
        let dune = document("books/dune", #"{"title":{"stringValue":"Dune"}}"#)
        let cases: [(Data, String)] = [
            (Data("12x{}".utf8), "element 1 (byte 0): expected the length of the next element in decimal digits"),
            (Data("50{\"metadata\":{}}".utf8), "the length prefix says 50 bytes, but only 15 remain"),
            (Data("3{1}".utf8), "element 1 (byte 0): its JSON cannot be read"),
            (bundle([dune[1]], documents: 1), "element 2, document: the document books/dune does not follow its documentMetadata element"),
            (bundle([dune[0]], documents: 1), "ends before the document books/dune"),
            (bundle(dune, documents: 3), "metadata.totalDocuments: says 3 documents, the bundle holds 1"),
            (bundle([#"{"mystery":{}}"#], documents: 0), "expected a namedQuery, documentMetadata or document element"),
            (bundle(document("books/dune", #"{"title":{"textValue":"Dune"}}"#), documents: 1), "document.fields.title: \"textValue\" is not a kind of value"),
            (bundle(document("books/dune", #"{"pages":{"integerValue":"many"}}"#), documents: 1), "expected a 64-bit integer, found the string \"many\""),
            (bundle([dune[0].replacingOccurrences(of: "(default)", with: "other-db"), dune[1]], documents: 1),
             "is in the database other-db, not this store's (default)"),
            (bundle(document("books//dune", "{}"), documents: 1), "has an empty segment at 2 of its path"),
            (bundle([booksQuery.replacingOccurrences(of: #""fieldPath":"pages"},"direction""#, with: #""fieldPath":"a`b`"},"direction""#)], documents: 0),
             "orderBy[0].field: the field path \"a`b`\" has a backtick inside a name"),
        ]
        for (data, expected) in cases {
            let error = await thrownError { _ = try await self.db.loadBundle(data) } as NSError?
            XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue, expected)
            XCTAssertTrue(error?.localizedDescription.contains(expected) == true, "\(error?.localizedDescription ?? "no error"), expected: \(expected)")
        }
        let books = try await db.collection("books").getDocuments()
        XCTAssertTrue(books.isEmpty)
    }

    func testAFailedLoadReportsErrorToObserversAndTheCompletion() throws {
        let finished = expectation(description: "completion")
        let states = Locked<[LoadBundleTaskState]>([])
        let task = db.loadBundle(Data("x".utf8)) { progress, error in
            XCTAssertEqual(progress?.state, .error)
            XCTAssertNotNil(error)
            finished.fulfill()
        }
        // Added once the load may have failed already: it hears the report all the same.
        let heard = expectation(description: "the observer hears the error")
        task.addObserver { progress in
            states.withLock { $0.append(progress.state) }
            if progress.state == .error { heard.fulfill() }
        }
        wait(for: [finished, heard], timeout: 10)
        XCTAssertEqual(states.withLock { $0 }, [.error])
    }

    func testAWriteTheStoreRefusesFailsTheLoad() async throws {
        let deep = String(repeating: #"{"mapValue":{"fields":{"m":"#, count: 21) + #"{"nullValue":null}"# + String(repeating: "}}}", count: 21)
        let error = await thrownError { _ = try await self.db.loadBundle(self.bundle(self.document("books/deep", #"{"m":\#(deep)}"#), documents: 1)) } as NSError?
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(error?.localizedDescription.contains("nested at most 20 levels") == true, error?.localizedDescription ?? "")
    }
}

@testable import DocumentStore
import Foundation
import XCTest

/// Aggregation: `query.count`, `query.aggregate([...])` and `getAggregation(source:)`,
/// with Firestore's results for sums and averages, written from the Firebase SDK's
/// FIRAggregateTests.mm, FIRCountTests.mm and AggregationIntegrationTests.swift.
final class AggregationTests: StoreTestCase {
    private var books: CollectionReference { db.collection("books") }

    /// Firebase's test data: two books with the same fields.
    private func writeTwoBooks() throws {
        try books.document("a").write(["author": "authorA", "title": "titleA", "pages": 100, "height": 24.5,
                                       "weight": 24.1, "foo": 1, "bar": 2, "baz": 3])
        try books.document("b").write(["author": "authorB", "title": "titleB", "pages": 50, "height": 25.5,
                                       "weight": 75.5, "foo": 1, "bar": 2, "baz": 3])
    }

    /// Writes `values` to documents named a, b, c... of `collection`, each under `field`.
    private func write(_ collection: String, _ field: String, _ values: [Any]) throws {
        for (index, value) in values.enumerated() {
            try db.collection(collection).document(String(UnicodeScalar(UInt8(97 + index)))).write([field: value])
        }
    }

    /// The typed result, so that the integer 150 and the double 150.0 are told apart.
    private func result(_ query: Query, _ field: AggregateField) async throws -> FirestoreValue {
        try await query.aggregate([field]).getAggregation(source: .server).result(for: field)
    }

    // MARK: count

    func testCountOfACollectionAndOfQueries() async throws {
        let empty = try await books.count.getAggregation(source: .server)
        XCTAssertEqual(empty.count, 0, "a collection that does not exist has no documents")
        try writeTwoBooks()
        try books.document("c").write(["title": "titleC", "pages": 100])
        let all = try await books.count.getAggregation(source: .server)
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(all.count.int64Value, 3)
        let hundred = try await books.whereField("pages", isEqualTo: 100).count.getAggregation(source: .server)
        XCTAssertEqual(hundred.count, 2)
        let limited = try await books.order(by: "title").limit(to: 2).count.getAggregation(source: .server)
        XCTAssertEqual(limited.count, 2, "the query's limit applies before counting")
        let none = try await books.whereField("pages", isEqualTo: 7).count.getAggregation(source: .server)
        XCTAssertEqual(none.count, 0)
    }

    /// Firebase's SDK answers an aggregation over `limit(toLast:)` without an order (only
    /// reading or listening to the query needs one): it sends the query with its explicit
    /// orders only (`ToAggregateTarget`), so the server limits it in its implicit order. The
    /// emulator counts 2 for `limit(toLast: 2)` over 5 documents.
    func testAnAggregationOverLimitToLastWithoutAnOrderIsAnswered() async throws {
        for (id, pages) in [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)] { try books.document(id).write(["pages": pages]) }
        let last = books.limit(toLast: 2)
        let counted = try await last.count.getAggregation(source: .server)
        XCTAssertEqual(counted.count, 2)
        let summed = try await last.aggregate([.sum("pages")]).getAggregation(source: .server)
        XCTAssertEqual(try summed.result(for: .sum("pages")), .integer(3), "the first two by id, as the server limits the query sent")
        let ordered = try await books.order(by: "pages").limit(toLast: 2).aggregate([.sum("pages")]).getAggregation(source: .server)
        XCTAssertEqual(try ordered.result(for: .sum("pages")), .integer(9), "with an order, the last two")
        do {
            _ = try await last.getDocuments()
            XCTFail("reading the query itself still needs an order")
        } catch {
            XCTAssertEqual((error as NSError).code, FirestoreErrorCode.invalidArgument.rawValue)
        }
    }

    func testCountWithAnOrderLeavesOutDocumentsWithoutTheField() async throws {
        let letters = db.collection("letters")
        for id in ["a", "b", "c"] { try letters.document(id).write(["k": id]) }
        try letters.document("d").write(["absent": "d"])
        let ordered = try await letters.order(by: "k").count.getAggregation(source: .server)
        XCTAssertEqual(ordered.count, 3)
        let filtered = try await letters.whereField("k", isEqualTo: "b").count.getAggregation(source: .server)
        XCTAssertEqual(filtered.count, 1)
        let nested = try await letters.document("a").collection("none").count.getAggregation(source: .server)
        XCTAssertEqual(nested.count, 0)
    }

    func testCountIsTheAggregateFieldCount() async throws {
        try writeTwoBooks()
        let collection = books
        let query = collection.count
        XCTAssertEqual(query.aggregations, [AggregateField.count()])
        XCTAssertTrue(query.query === collection)
        let snapshot = try await query.getAggregation(source: .server)
        XCTAssertEqual(snapshot.get(AggregateField.count()) as? NSNumber, 2)
        XCTAssertTrue(snapshot.query === query)
    }

    #if !SHELF_POSTGRES_TESTS && !SHELF_REMOTE_TESTS  // a file that is not JSON: PostgreSQL keeps only valid jsonb, the wire only documents
    /// Issue 51: a document whose file cannot be read is counted nowhere (its snapshot, with
    /// its `readError`, is still among a query's documents, as the app shows it).
    func testADocumentWhoseFileCannotBeReadIsCountedNowhere() async throws {
        try writeTwoBooks()
        try store.writeFile("books/broken.json", "{")
        let documents = try await books.getDocuments()
        XCTAssertEqual(documents.documents.filter { $0.readError != nil }.map(\.documentID), ["broken"])
        let counted = try await books.count.getAggregation(source: .server)
        XCTAssertEqual(counted.count.intValue, 2)
        let sum = try await books.aggregate([.count(), .sum("pages")]).getAggregation(source: .server)
        XCTAssertEqual(try sum.result(for: .sum("pages")), .integer(150))
        XCTAssertEqual(sum.count, 2, "a document without the field (it has no fields) is left out")
    }
    #endif

    // MARK: sum and average, as the SDK's tests have them

    func testCanRunAnAggregateQuery() async throws {
        try writeTwoBooks()
        let snapshot = try await books.aggregate([AggregateField.count(), AggregateField.sum("pages"), AggregateField.average("pages")])
            .getAggregation(source: .server)
        XCTAssertEqual(snapshot.count, 2)
        XCTAssertEqual(try snapshot.result(for: .count()), .integer(2))
        XCTAssertEqual(try snapshot.result(for: .sum("pages")), .integer(150), "a sum of integers is an integer")
        XCTAssertEqual(try snapshot.result(for: .average("pages")), .double(75), "an average is always a double")
        XCTAssertEqual(snapshot.get(AggregateField.sum("pages")) as? NSNumber, 150)
        XCTAssertEqual((snapshot.get(AggregateField.sum("pages")) as? NSNumber)?.int64Value, 150)
        XCTAssertEqual((snapshot.get(AggregateField.average("pages")) as? NSNumber)?.doubleValue, 75.0)
        // Firebase's Swift test casts the NSNumber straight to Swift numbers.
        XCTAssertEqual(snapshot.get(AggregateField.sum("pages")) as? Double, 150)
        XCTAssertEqual(snapshot.get(AggregateField.sum("pages")) as? Int64, 150)
        XCTAssertEqual(snapshot.get(AggregateField.average("pages")) as? Double, 75.0)
        XCTAssertEqual(snapshot.get(AggregateField.average("pages")) as? Int64, 75)
    }

    func testCompletionHandlerGetsTheSnapshotOnTheCallbackQueue() throws {
        try writeTwoBooks()
        let done = expectation(description: "aggregation")
        books.aggregate([.count(), .sum("pages"), .average("pages")]).getAggregation(source: .server) { snapshot, error in
            dispatchPrecondition(condition: .onQueue(self.store.callbackQueue))
            XCTAssertNil(error)
            XCTAssertEqual(snapshot?.count, 2)
            XCTAssertEqual(try? snapshot?.result(for: .sum("pages")), .integer(150))
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testAggregatesNestedFieldsByDottedPathOrFieldPath() async throws {
        try books.document("a").write(["metadata": ["pages": 100, "rating": ["critic": 2, "user": 5]]])
        try books.document("b").write(["metadata": ["pages": 50, "rating": ["critic": 4, "user": 4]]])
        let snapshot = try await books.aggregate([.count(), .sum("metadata.pages"), .average(FieldPath(["metadata", "pages"]))])
            .getAggregation(source: .server)
        XCTAssertEqual(snapshot.count, 2)
        XCTAssertEqual(try snapshot.result(for: .sum(FieldPath(["metadata", "pages"]))), .integer(150),
                       "a dotted string and a FieldPath name the same aggregation")
        XCTAssertEqual(try snapshot.result(for: .average("metadata.pages")), .double(75))
        let dotted = try await result(db.collection("odd"), .sum(FieldPath(["a.b"])))
        XCTAssertEqual(dotted, .integer(0), "FieldPath([\"a.b\"]) is one field named a.b, which no document has")
    }

    func testDuplicateAggregationsAreComputedOnce() async throws {
        try writeTwoBooks()
        let snapshot = try await books.aggregate([.count(), .sum("pages"), .sum("pages")]).getAggregation(source: .server)
        XCTAssertEqual(snapshot.count, 2)
        XCTAssertEqual(try snapshot.result(for: .sum("pages")), .integer(150))
    }

    func testSnapshotsAreEqualWhenTheirQueriesAndResultsAreAsFirebasesIsEqual() async throws {
        try writeTwoBooks()
        let first = try await books.aggregate([.count(), .sum("pages")]).getAggregation(source: .server)
        let again = try await books.aggregate([.sum("pages"), .count(), .count()]).getAggregation(source: .server)
        XCTAssertEqual(first, again, "the same aggregations in another order, a duplicate merged")
        XCTAssertEqual(first.hashValue, again.hashValue)
        XCTAssertEqual(Set([first, again]).count, 1)

        try books.document("c").write(["pages": 1])
        let changed = try await books.aggregate([.count(), .sum("pages")]).getAggregation(source: .server)
        XCTAssertNotEqual(first, changed, "other results")
        let otherQuery = try await books.whereField("pages", isGreaterThan: 0).aggregate([.count(), .sum("pages")]).getAggregation(source: .server)
        XCTAssertNotEqual(changed, otherQuery, "the same results of another query")
    }

    /// `hash(into:)` hashes the results, as `==` compares them: snapshots of one query with
    /// other counts and sums do not all collide.
    func testSnapshotsWithOtherResultsHashApart() async throws {
        var hashes: Set<Int> = []
        for pages in 1...8 {
            try books.document("p\(pages)").write(["pages": pages])
            let snapshot = try await books.aggregate([.count(), .sum("pages")]).getAggregation(source: .server)
            hashes.insert(snapshot.hashValue)
        }
        XCTAssertEqual(hashes.count, 8, "eight different results")
    }

    func testAggregatesOnlyTheQuerysDocuments() async throws {
        try write("ratings", "rating", [5, 4, 3, 0])
        let query = db.collection("ratings").whereField("rating", isEqualTo: 4)
        let snapshot = try await query.aggregate([.sum("rating"), .average("rating"), .count()]).getAggregation(source: .server)
        XCTAssertEqual(snapshot.count, 1)
        XCTAssertEqual(try snapshot.result(for: .sum("rating")), .integer(4))
        XCTAssertEqual(try snapshot.result(for: .average("rating")), .double(4))
        let firstTwo = try await db.collection("ratings").order(by: "rating").limit(to: 2)
            .aggregate([.sum("rating"), .count()]).getAggregation(source: .server)
        XCTAssertEqual(try firstTwo.result(for: .sum("rating")), .integer(3), "the limit picks 0 and 3")
        XCTAssertEqual(firstTwo.count, 2)
    }

    func testSumOfIntegersThatOverflowsIsADouble() async throws {
        try write("long", "x", [Int64.max, Int64.max, Int64.max])
        let sum = try await result(db.collection("long"), .sum("x"))
        XCTAssertEqual(sum, .double(Double(Int64.max) + Double(Int64.max) + Double(Int64.max)))
        try write("twice", "x", [Int64.max, Int64.max])
        let twice = try await result(db.collection("twice"), .sum("x"))
        XCTAssertEqual(twice, .double(Double(Int64.max) * 2))
        try write("low", "x", [Int64.min, Int64(-1)])
        let low = try await result(db.collection("low"), .sum("x"))
        XCTAssertEqual(low, .double(-0x1p63 - 1), "below Int64.min too")
    }

    func testSumThatOverflowsOnlyOnTheWayStaysAnInteger() async throws {
        try write("acc", "x", [Int64.max, 1, -101])
        let sum = try await result(db.collection("acc"), .sum("x"))
        XCTAssertEqual(sum, .integer(Int64.max - 100))
        try write("neg", "x", [Int64.max, -Int64.max, -101, -10000])
        let negative = try await result(db.collection("neg"), .sum("x"))
        XCTAssertEqual(negative, .integer(-10101))
    }

    func testSumOfDoublesReachesInfinity() async throws {
        try write("pos", "x", [Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude])
        let positive = try await result(db.collection("pos"), .sum("x"))
        XCTAssertEqual(positive, .double(.infinity))
        try write("neg", "x", [-Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude])
        let negative = try await result(db.collection("neg"), .sum("x"))
        XCTAssertEqual(negative, .double(-.infinity))
        try write("both", "x", [Double.infinity, -Double.infinity])
        let both = try await result(db.collection("both"), .sum("x"))
        XCTAssertEqual(both, .double(.nan), "infinity math follows IEEE-754: ∞ + -∞ is NaN")
        let bothAverage = try await result(db.collection("both"), .average("x"))
        XCTAssertEqual(bothAverage, .double(.nan))
    }

    func testSumOverflowingDuringAccumulationEndsInfiniteOrZero() async throws {
        try write("swing", "x", [Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude,
                                 -Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude])
        let sum = try await result(db.collection("swing"), .sum("x"))
        guard case .double(let total) = sum else { return XCTFail("expected a double, got \(sum)") }
        XCTAssertTrue(total == .infinity || total == 0 || total == -.infinity, "Firestore allows any of these; got \(total)")
    }

    func testSumAndAverageOfTheSmallestDouble() async throws {
        try write("tiny", "x", [Double.leastNonzeroMagnitude])
        let sum = try await result(db.collection("tiny"), .sum("x"))
        XCTAssertEqual(sum, .double(.leastNonzeroMagnitude))
        let average = try await result(db.collection("tiny"), .average("x"))
        XCTAssertEqual(average, .double(.leastNonzeroMagnitude))
        try write("under", "x", [Double.leastNonzeroMagnitude, 0])
        let underflow = try await result(db.collection("under"), .average("x"))
        XCTAssertEqual(underflow, .double(0), "half the smallest double rounds to 0")
    }

    func testAverageOverflow() async throws {
        try write("long", "x", [Int64.max, Int64.max, Int64.max])
        let long = try await result(db.collection("long"), .average("x"))
        XCTAssertEqual(long, .double(Double(Int64.max)))
        try write("big", "x", [Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude])
        let big = try await result(db.collection("big"), .average("x"))
        XCTAssertEqual(big, .double(.infinity), "the sum overflows before it is divided")
        try write("small", "x", [-Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude])
        let small = try await result(db.collection("small"), .average("x"))
        XCTAssertEqual(small, .double(-.infinity))
    }

    func testNaNMakesSumAndAverageNaN() async throws {
        try books.document("a").write(["pages": 100, "rating": 4])
        try books.document("b").write(["pages": 50, "rating": Double.nan])
        let snapshot = try await books.aggregate([.sum("pages"), .sum("rating"), .average("pages"), .average("rating")])
            .getAggregation(source: .server)
        XCTAssertEqual(try snapshot.result(for: .sum("pages")), .integer(150))
        XCTAssertEqual(try snapshot.result(for: .sum("rating")), .double(.nan))
        XCTAssertEqual(try snapshot.result(for: .average("pages")), .double(75))
        XCTAssertEqual(try snapshot.result(for: .average("rating")), .double(.nan))
        XCTAssertTrue((snapshot.get(.sum("rating")) as? NSNumber)?.doubleValue.isNaN ?? false)
    }

    func testSumAndAverageSkipValuesThatAreNotNumbers() async throws {
        try write("ratings", "rating", [5, 4, "3", 1])
        let sum = try await db.collection("ratings").aggregate([.count(), .sum("rating")]).getAggregation(source: .server)
        XCTAssertEqual(sum.count, 4, "the document holding \"3\" has the field, so it is counted")
        XCTAssertEqual(try sum.result(for: .sum("rating")), .integer(10))
        try write("others", "rating", [5, 4, "3", 6, true, NSNull(), ["n": 1], [2], Timestamp(seconds: 9, nanoseconds: 0),
                                       GeoPoint(latitude: 1, longitude: 2), Data([1])])
        let average = try await db.collection("others").aggregate([.count(), .average("rating"), .sum("rating")])
            .getAggregation(source: .server)
        XCTAssertEqual(average.count, 11)
        XCTAssertEqual(try average.result(for: .average("rating")), .double(5))
        XCTAssertEqual(try average.result(for: .sum("rating")), .integer(15), "booleans are not numbers either")
    }

    func testAverageOfVariousNumericTypes() async throws {
        let coll = db.collection("numbers")
        try coll.document("a").write(["x": 1, "intToInt": 10, "floatToInt": 10.5, "mixedToInt": 10, "floatToFloat": 5.5,
                                      "mixedToFloat": 8.6, "intToFloat": 10])
        try coll.document("b").write(["intToInt": 5, "floatToInt": 9.5, "mixedToInt": 9.5, "floatToFloat": 4.5,
                                      "mixedToFloat": 9, "intToFloat": 9])
        try coll.document("c").write(["intToInt": 0, "floatToInt": "ignore", "mixedToInt": 10.5, "floatToFloat": 3.5,
                                      "mixedToFloat": 10, "intToFloat": "ignore"])
        let expected: [(String, Double)] = [("intToInt", 5), ("floatToInt", 10), ("mixedToInt", 10), ("floatToFloat", 4.5),
                                            ("mixedToFloat", 9.2), ("intToFloat", 9.5)]
        for (field, average) in expected {
            let value = try await result(coll, .average(field))
            guard case .double(let got) = value else { XCTFail("\(field): expected a double, got \(value)"); continue }
            XCTAssertEqual(got, average, accuracy: 1e-14, field)
        }
    }

    func testSumOfMixedIntegersAndDoublesIsADouble() async throws {
        try write("mixed", "x", [1, 2.5, 3])
        let mixed = try await result(db.collection("mixed"), .sum("x"))
        XCTAssertEqual(mixed, .double(6.5))
        try write("whole", "x", [1.0, 2])
        let whole = try await result(db.collection("whole"), .sum("x"))
        XCTAssertEqual(whole, .double(3), "one double makes the sum a double, even when it is whole")
        try write("ints", "x", [1, 2])
        let ints = try await result(db.collection("ints"), .sum("x"))
        XCTAssertEqual(ints, .integer(3))
        XCTAssertEqual(ints.anyValue as? NSNumber, NSNumber(value: Int64(3)))
    }

    // MARK: empty results and missing fields

    func testAggregatesOverZeroDocuments() async throws {
        try writeTwoBooks()
        let query = books.whereField("pages", isEqualTo: 200)
        let snapshot = try await query.aggregate([.count(), .sum("pages"), .average("pages")]).getAggregation(source: .server)
        XCTAssertEqual(try snapshot.result(for: .count()), .integer(0))
        XCTAssertEqual(try snapshot.result(for: .sum("pages")), .integer(0), "a sum over nothing is the integer 0")
        XCTAssertEqual(try snapshot.result(for: .average("pages")), .null, "an average over nothing is null")
        XCTAssertTrue(snapshot.get(.average("pages")) is NSNull)
        XCTAssertEqual(snapshot.get(.sum("pages")) as? NSNumber, 0)
    }

    func testAggregatesOverAFieldNoDocumentHas() async throws {
        try write("books", "pages", [100, 50])
        let snapshot = try await books.aggregate([.count(), .sum("notInMyDocs"), .average("notInMyDocs")]).getAggregation(source: .server)
        XCTAssertEqual(snapshot.count, 0, "only documents that have every aggregated field are counted")
        XCTAssertEqual(try snapshot.result(for: .sum("notInMyDocs")), .integer(0))
        XCTAssertEqual(try snapshot.result(for: .average("notInMyDocs")), .null)
        let countAlone = try await books.count.getAggregation(source: .server)
        XCTAssertEqual(countAlone.count, 2, "count() alone counts every matching document")
    }

    func testDocumentsMissingAnyAggregatedFieldAreLeftOutOfEveryResult() async throws {
        try books.document("a").write(["pages": 100, "rating": 4])
        try books.document("b").write(["pages": 50])
        try books.document("c").write(["rating": 2])
        try books.document("d").write(["pages": 10, "rating": NSNull()])
        let snapshot = try await books.aggregate([.count(), .sum("pages"), .average("rating")]).getAggregation(source: .server)
        XCTAssertEqual(snapshot.count, 2, "a and d have both fields (null is a value)")
        XCTAssertEqual(try snapshot.result(for: .sum("pages")), .integer(110))
        XCTAssertEqual(try snapshot.result(for: .average("rating")), .double(4))
        let pagesOnly = try await books.aggregate([.count(), .sum("pages")]).getAggregation(source: .server)
        XCTAssertEqual(pagesOnly.count, 3)
        XCTAssertEqual(try pagesOnly.result(for: .sum("pages")), .integer(160))
    }

    /// Google's emulator refuses to sum or average the document id, in its storage's words.
    func testTheDocumentIDIsRefusedAsAnAggregatedField() async throws {
        try writeTwoBooks()
        for field in [AggregateField.sum(FieldPath.documentID()), .average(FieldPath.documentID())] {
            let error = await thrownError { _ = try await self.books.aggregate([.count(), field]).getAggregation(source: .server) }
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue, "\(field)")
            XCTAssertEqual((error as? FirestoreErrorCode)?.description, "Aggregations are not supported for the property: __key__")
        }
    }
}

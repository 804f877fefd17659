@testable import DocumentStore
import Foundation
import XCTest

/// Firestore's limits, checked when writing with a clear error and never a trap, so the store
/// never writes what it cannot read back.
final class LimitsTests: StoreTestCase {
    private var ref: DocumentReference { db.collection("limits").document("doc") }
    private let range = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"

    private func nested(_ depth: Int) -> [String: Any] {
        var value: [String: Any] = ["leaf": 1]
        for _ in 1..<depth { value = ["m": value] }
        return value
    }

    // MARK: Timestamps

    func testADateBeyondAnyCalendarIsRefusedNotATrap() {
        let error = storeError { try ref.set(["d": Date(timeIntervalSince1970: 1e20)]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description, "document limits/doc, field d: a time after year 9999 is outside the range Firestore stores, \(range)")
        let before = storeError { try ref.set(["d": Date(timeIntervalSince1970: -1e20)]) }
        XCTAssertEqual(before?.description, "document limits/doc, field d: a time before year 1 is outside the range Firestore stores, \(range)")
        XCTAssertNil(store.readFile("limits/doc.json"), "nothing is written")
    }

    func testThePlainFormReportsTheRefusedDateToTheHandler() {
        let reported = Locked<[String]>([])
        db.writeErrorHandler = { error in reported.withLock { $0.append("\(error)") } }
        ref.setData(["d": Date(timeIntervalSince1970: 1e20)])
        store.drainCallbacks()
        XCTAssertEqual(reported.withLock { $0 }, ["document limits/doc, field d: a time after year 9999 is outside the range Firestore stores, \(range)"])
    }

    struct Dated: Codable, Equatable {
        var d: Date
    }

    func testAnEncodedDateBeyondTheRangeIsRefusedToo() {
        let error = thrownError { try ref.write(Dated(d: Date(timeIntervalSince1970: 1e20))) }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue, "\(String(describing: error))")
        XCTAssertNil(store.readFile("limits/doc.json"))
    }

    func testTimestampsOutsideTheYears1To9999AreRefusedWithTheirTime() {
        let after = storeError { try ref.set(["t": Timestamp(seconds: 253_402_300_800, nanoseconds: 0)]) }
        XCTAssertEqual(after?.description,
                       "document limits/doc, field t: the timestamp 10000-01-01T00:00:00Z is outside the range Firestore stores, \(range)")
        let before = storeError { try ref.set(["list": [Timestamp(seconds: -62_135_596_801, nanoseconds: 999_999_999)]]) }
        XCTAssertEqual(before?.description,
                       "document limits/doc, field list[0]: the timestamp 0000-12-31T23:59:59.999999999Z is outside the range Firestore stores, \(range)")
        let extreme = storeError { try ref.set(["t": Timestamp(seconds: .min, nanoseconds: 0)]) }
        XCTAssertEqual(extreme?.description,
                       "document limits/doc, field t: a time before year 1 is outside the range Firestore stores, \(range)")
    }

    func testTheFirstAndLastInstantsAreStored() throws {
        try ref.set(["first": Timestamp(seconds: -62_135_596_800, nanoseconds: 0),
                       "last": Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999)])
        XCTAssertEqual(store.readFile("limits/doc.json"), """
            {
              "first": {
                "$timestamp": "0001-01-01T00:00:00Z"
              },
              "last": {
                "$timestamp": "9999-12-31T23:59:59.999999Z"
              }
            }

            """)
    }

    func testTimestampsKeepMicrosecondsAndTruncateTheRest() throws {
        try ref.set(["after": Timestamp(seconds: 1, nanoseconds: 123_456_789),
                       "before": Timestamp(seconds: -1, nanoseconds: 999_999_999),
                       "date": Date(timeIntervalSince1970: 0.000_001_9)])
        let fields = try storedFields("limits/doc")
        XCTAssertEqual(fields["after"], .timestamp(Timestamp(seconds: 1, nanoseconds: 123_456_000)))
        XCTAssertEqual(fields["before"], .timestamp(Timestamp(seconds: -1, nanoseconds: 999_999_000)), "truncated toward the past")
        XCTAssertEqual(fields["date"], .timestamp(Timestamp(seconds: 0, nanoseconds: 1000)))
    }

    func testATimestampReadFromAFileIsTruncatedToo() throws {
        try store.writeFile("limits/doc.json", #"{"t": {"$timestamp": "2014-09-09T12:30:00.123456789Z"}}"#)
        XCTAssertEqual(try storedFields("limits/doc")["t"], .timestamp(Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000)))
    }

    /// The last instant read as a `Date` and saved back must not round up to year 10000.
    func testTheLastInstantReadAsADateAndSavedBackStaysReadable() async throws {
        try store.writeFile("limits/doc.json", #"{"d": {"$timestamp": "9999-12-31T23:59:59.999999999Z"}}"#)
        let read = try await ref.getDocument(as: Dated.self)
        try ref.write(read)
        let text = try XCTUnwrap(store.readFile("limits/doc.json"))
        XCTAssertTrue(text.contains(#""$timestamp": "9999-12-31T23:59:59."#), text)
        let again = try await ref.getDocument(as: Dated.self)
        XCTAssertLessThanOrEqual(again.d, read.d)
        XCTAssertEqual(Timestamp(date: again.d).seconds, 253_402_300_799)
    }

    func testTheLastInstantAsAPlainStringReadsAsADateAndSavesBackReadable() async throws {
        try store.writeFile("limits/doc.json", #"{"d": "9999-12-31T23:59:59.999999999Z"}"#)
        let read = try await ref.getDocument(as: Dated.self)
        try ref.write(read)
        let again = try await ref.getDocument(as: Dated.self)
        XCTAssertEqual(Timestamp(date: again.d).seconds, 253_402_300_799)
    }

    func testTimestampArithmeticNeverTraps() {
        XCTAssertEqual(Timestamp(seconds: .min, nanoseconds: 0).dateValue().timeIntervalSince1970, Double(Int64.min), accuracy: 1e6)
        XCTAssertEqual(Timestamp(seconds: .max, nanoseconds: 999_999_999).dateValue().timeIntervalSince1970, Double(Int64.max), accuracy: 1e6)
        XCTAssertFalse(Timestamp(seconds: .min, nanoseconds: 0).rfc3339.isEmpty)
        XCTAssertFalse(Timestamp(seconds: .max, nanoseconds: 0).description.isEmpty)
        XCTAssertEqual(Timestamp(date: Date(timeIntervalSince1970: .infinity)).rangeProblem,
                       "a time after year 9999 is outside the range Firestore stores, \(range)")
    }

    // MARK: Nesting

    func testAMapNested100DeepIsRefusedWithItsFieldPath() {
        let error = storeError { try ref.set(["deep": nested(100)]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        let path = "deep" + String(repeating: ".m", count: 20)
        XCTAssertEqual(error?.description, "document limits/doc, field \(path): maps and arrays can be nested at most 20 levels deep")
        XCTAssertNil(store.readFile("limits/doc.json"))
    }

    func testTwentyLevelsAreStoredAndReadBackAndTwentyOneAreNot() throws {
        try ref.set(["deep": nested(20)])
        XCTAssertNotNil(try storedFields("limits/doc")["deep"])
        let error = storeError { try ref.set(["deep": nested(21)]) }
        XCTAssertEqual(error?.description,
                       "document limits/doc, field deep\(String(repeating: ".m", count: 20)): maps and arrays can be nested at most 20 levels deep")
    }

    /// A file written by hand may nest deeper than Firestore allows; it reads, and a value left
    /// alone is written back as it was whatever the write (update, merge, or the whole document).
    func testAValueNestedTooDeepOnDiskIsKeptByWritesThatLeaveItAlone() async throws {
        let deep = String(repeating: #"{"m": "#, count: 29) + #"{"leaf": 1}"# + String(repeating: "}", count: 29)
        try store.writeFile("limits/doc.json", #"{"deep": \#(deep), "list": [\#(deep)], "title": "A"}"#)
        let read = try await ref.getDocument()
        XCTAssertNil(read.readError)

        try ref.update(["title": "B"])
        try ref.write(["title": "C"], merge: true)
        var whole = try XCTUnwrap(read.data())
        whole["title"] = "D"
        try ref.write(whole)
        let written = try await ref.getDocument()
        XCTAssertEqual(written.get("title") as? String, "D")
        XCTAssertTrue(written.namesOfFieldsChanged(since: read) == ["title"], "the deep values are as they were")

        // A new value that deep is refused, as Firestore refuses it, even beside the old one.
        whole["other"] = whole["deep"]
        let error = storeError { try ref.write(whole) }
        XCTAssertEqual(error?.description,
                       "document limits/doc, field other\(String(repeating: ".m", count: 20)): maps and arrays can be nested at most 20 levels deep")
    }

    func testArraysCountTowardTheDepth() {
        var value: Any = 1
        for level in 0..<21 { value = level % 2 == 0 ? [value] : ["m": value] }
        let error = storeError { try ref.set(["deep": value]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(error?.description.hasSuffix("maps and arrays can be nested at most 20 levels deep") == true, "\(String(describing: error))")
    }

    func testAnArrayDirectlyInsideAnArrayIsRefusedWithItsPath() {
        let error = storeError { try ref.set(["cover": ["grid": [1, [2, 3]]]]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description,
                       "document limits/doc, field cover.grid[1]: an array cannot directly hold another array; put the inner array in a map")
        XCTAssertNil(store.readFile("limits/doc.json"))
    }

    func testAnArrayInAMapInAnArrayIsFine() throws {
        try ref.set(["rows": [["cells": [1, 2]], ["cells": [3]]]])
        XCTAssertEqual(try storedFields("limits/doc")["rows"],
                       .array([.map(["cells": .array([.integer(1), .integer(2)])]), .map(["cells": .array([.integer(3)])])]))
    }

    // MARK: Other limits

    func testFieldNamesAsFirestoreAllowsThem() {
        XCTAssertEqual(storeError { try ref.set(["": 1]) }?.description, "document limits/doc, field : a field name cannot be empty")
        XCTAssertEqual(storeError { try ref.set(["m": ["__id__": 1]]) }?.description,
                       #"document limits/doc, field m.__id__: field names that begin and end with "__" are reserved"#)
    }

    func testAGeoPointOffTheEarthIsRefused() {
        XCTAssertEqual(storeError { try ref.set(["p": GeoPoint(latitude: 91, longitude: 0)]) }?.description,
                       "document limits/doc, field p: invalid GeoPoint: latitude 91.0 is outside -90...90")
    }

    func testAReferenceToAnotherStoreIsRefused() throws {
        let other = try TemporaryStore()
        defer { other.remove() }
        let error = storeError { try ref.set(["r": other.db.document("books/x")]) }
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(error?.description.contains("the reference books/x belongs to the store at") == true, "\(String(describing: error))")
    }
}

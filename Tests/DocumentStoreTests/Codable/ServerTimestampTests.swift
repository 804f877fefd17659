@testable import DocumentStore
import Foundation
import XCTest

/// A user's own type stored as a timestamp through `@ServerTimestamp`: an RFC 3339 string, as
/// Firebase's own test does with String (a type of ours here, so String stays untouched).
struct RFC3339Text: Codable, Equatable, ServerTimestampWrappable {
    var text: String

    struct NotATime: Error, Equatable { let text: String }

    static func wrap(_ timestamp: Timestamp) throws -> RFC3339Text { RFC3339Text(text: timestamp.rfc3339) }

    static func unwrap(_ value: RFC3339Text) throws -> Timestamp {
        guard let timestamp = Timestamp(rfc3339: value.text) else { throw NotATime(text: value.text) }
        return timestamp
    }
}

/// `@ServerTimestamp`: nil is written as `FieldValue.serverTimestamp()`, which the commit
/// replaces with its time; a value is written as a timestamp; null reads as nil.
final class ServerTimestampTests: StoreTestCase {
    struct Stamped: Codable, Equatable {
        @ServerTimestamp var timestamp: Timestamp? = nil
    }

    func testOfTimestamp() {
        assertEncodes(Stamped(), to: ["timestamp": FieldValue.serverTimestamp()])
        let timestamp = Timestamp(seconds: 123_456_789, nanoseconds: 4321)
        assertRoundTrip(Stamped(timestamp: timestamp), fields: ["timestamp": timestamp])
        assertDecodes(["timestamp": NSNull()], to: Stamped(timestamp: nil))
    }

    func testOfDate() {
        struct Model: Codable, Equatable {
            @ServerTimestamp var date: Date? = nil
        }
        assertEncodes(Model(), to: ["date": FieldValue.serverTimestamp()])
        let timestamp = Timestamp(seconds: 123_456_789, nanoseconds: 0)
        assertRoundTrip(Model(date: timestamp.dateValue()), fields: ["date": timestamp])
        assertDecodes(["date": NSNull()], to: Model(date: nil))
    }

    func testOfAUserType() {
        struct Model: Codable, Equatable {
            @ServerTimestamp var at: RFC3339Text? = nil
        }
        assertEncodes(Model(), to: ["at": FieldValue.serverTimestamp()])
        assertRoundTrip(Model(at: RFC3339Text(text: "2019-10-07T21:33:51.123Z")),
                        fields: ["at": Timestamp(seconds: 1_570_484_031, nanoseconds: 123_000_000)])
        let error = encodingError(Model(at: RFC3339Text(text: "Invalid date")))
        XCTAssertEqual(error as? RFC3339Text.NotATime, RFC3339Text.NotATime(text: "Invalid date"), "unwrap's own error")
    }

    func testAMissingFieldReadsAsNil() {
        assertDecodes([:], to: Stamped(timestamp: nil))
    }

    func testWithJSONEncoderAValueIsItsCodableFormAndNilIsAnError() throws {
        let json = try JSONEncoder().encode(Stamped(timestamp: Timestamp(seconds: 5, nanoseconds: 6)))
        let back = try JSONDecoder().decode(Stamped.self, from: json)
        XCTAssertEqual(back, Stamped(timestamp: Timestamp(seconds: 5, nanoseconds: 6)))
        let error = thrownError { _ = try JSONEncoder().encode(Stamped()) }
        XCTAssertTrue(error is FirestoreEncodingError, "FieldValue cannot go through JSONEncoder: \(String(describing: error))")
    }

    // MARK: Through the store

    struct Note: Codable, Equatable {
        var title: String
        @ServerTimestamp var createdAt: Date?
        @ServerTimestamp var updatedAt: Timestamp?
        @ServerTimestamp var keptAt: Date?
    }

    func testNilBecomesTheTimeOfTheWriteSharedByTheWholeWrite() async throws {
        let ref = db.document("notes/one")
        let kept = Date(timeIntervalSince1970: 1_410_220_800)
        let before = Timestamp()
        try ref.write(Note(title: "T", createdAt: nil, updatedAt: nil, keptAt: kept))
        let after = Timestamp()

        let snapshot = try await ref.getDocument()
        let created = try XCTUnwrap(snapshot.get("createdAt") as? Timestamp)
        XCTAssertEqual(snapshot.get("updatedAt") as? Timestamp, created, "one write, one instant")
        XCTAssertEqual(snapshot.get("keptAt") as? Timestamp, Timestamp(date: kept), "a set value is kept")
        XCTAssertEqual(created.nanoseconds % 1000, 0, "Firestore keeps microseconds")
        XCTAssertLessThanOrEqual(before.truncatedToMicroseconds, created)
        XCTAssertLessThanOrEqual(created, after)

        let read = try await ref.getDocument(as: Note.self)
        XCTAssertEqual(read.updatedAt, created)
        // A Date is the timestamp's `dateValue()`; `Timestamp(date:)` truncates as Firebase's, so
        // it need not give the same nanoseconds back.
        XCTAssertEqual(read.createdAt, created.dateValue())
        XCTAssertEqual(read.keptAt, kept)

        // Written back, the values read are kept (the Date within the microsecond Firebase's
        // truncating `Timestamp(date:)` may take off): they are set now.
        try ref.write(read)
        let again = try await ref.getDocument()
        assertWithinAMicrosecondBefore(again.get("createdAt") as? Timestamp, created)
        XCTAssertEqual(again.get("updatedAt") as? Timestamp, created)
    }

    func testASetValueIsStoredTruncatedToMicroseconds() async throws {
        let ref = db.document("notes/two")
        try ref.write(Note(title: "T", createdAt: Date(timeIntervalSince1970: 0),
                                 updatedAt: Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_789), keptAt: nil))
        let snapshot = try await ref.getDocument()
        XCTAssertEqual(snapshot.get("createdAt") as? Timestamp, Timestamp(seconds: 0, nanoseconds: 0))
        XCTAssertEqual(snapshot.get("updatedAt") as? Timestamp, Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000))
        XCTAssertNotNil(snapshot.get("keptAt") as? Timestamp, "nil is the time of the write")
    }

    func testFieldValueServerTimestampsOfOneWriteShareOneInstant() async throws {
        let ref = db.document("notes/three")
        try await ref.setData(["a": FieldValue.serverTimestamp(), "nested": ["b": FieldValue.serverTimestamp()] as [String: Any]])
        let snapshot = try await ref.getDocument()
        let a = try XCTUnwrap(snapshot.get("a") as? Timestamp)
        XCTAssertEqual(snapshot.get("nested.b") as? Timestamp, a)
    }

    /// A read's snapshot is never pending (the write is stored when the call returns), so each
    /// behaviour gives the time the write stored; a listener's pending snapshot is
    /// `PendingWritesTests`'.
    func testEveryServerTimestampBehaviorGivesTheStoredTime() async throws {
        let ref = db.document("notes/four")
        try ref.write(Stamped())
        let snapshot = try await ref.getDocument()
        let stored = try XCTUnwrap(snapshot.get("timestamp") as? Timestamp)
        XCTAssertFalse(snapshot.metadata.hasPendingWrites)
        for behavior in [ServerTimestampBehavior.none, .estimate, .previous] {
            XCTAssertEqual(try snapshot.data(as: Stamped.self, with: behavior).timestamp, stored)
            XCTAssertEqual(snapshot.data(with: behavior)?["timestamp"] as? Timestamp, stored)
            XCTAssertEqual(snapshot.get("timestamp", serverTimestampBehavior: behavior) as? Timestamp, stored)
        }
    }
}

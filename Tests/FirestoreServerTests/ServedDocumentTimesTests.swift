import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore
import SwiftProtobuf
import XCTest

/// Documents' create and update times through the server: kept by the store, moved by every
/// write that changes the document, and what an `update_time` precondition compares with.
final class ServedDocumentTimesTests: XCTestCase {
    func testAnUpdateMovesTheUpdateTimeAndKeepsTheCreateTime() async throws {
        try await ServedStore.eachBackend { served in
            let created = try await served.commit([served.set("books/dune", ["pages": .integer(1)])])
            let first = try await served.get("books/dune")
            XCTAssertEqual(first.createTime, first.updateTime, "\(served.backend): a new document")
            XCTAssertEqual(created.writeResults.first?.updateTime, first.updateTime, "\(served.backend): the write's result")
            try await served.commit([served.set("books/dune", ["pages": .integer(2)])])
            let second = try await served.get("books/dune")
            XCTAssertEqual(second.createTime, first.createTime, "\(served.backend)")
            XCTAssertTrue(Self.isLater(second.updateTime, than: first.updateTime), "\(served.backend): \(second.updateTime) after \(first.updateTime)")
        }
    }

    func testAnUpdateTimePreconditionHoldsOnlyAtTheDocumentsCurrentUpdateTime() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(1)])])
            let stale = try await served.get("books/dune").updateTime
            try await served.commit([served.set("books/dune", ["pages": .integer(2)])])
            let current = try await served.get("books/dune").updateTime

            let failure = await status { try await served.commit([Self.set(served, pages: 3, ifUpdatedAt: stale)]) }
            XCTAssertEqual(failure?.0, .failedPrecondition, "\(served.backend): \(String(describing: failure))")
            let unchanged = try await served.get("books/dune")
            XCTAssertEqual(unchanged.fields["pages"], .integer(2), "\(served.backend): nothing written")

            let response = try await served.commit([Self.set(served, pages: 4, ifUpdatedAt: current)])
            let written = try await served.get("books/dune")
            XCTAssertEqual(written.fields["pages"], .integer(4), "\(served.backend)")
            XCTAssertEqual(response.writeResults.first?.updateTime, written.updateTime, "\(served.backend)")
            XCTAssertTrue(Self.isLater(written.updateTime, than: current), "\(served.backend)")
        }
    }

    /// As Google's emulator answers (measured): an update time later than the stored one is
    /// INVALID_ARGUMENT (the Python client's system tests check this for `delete` and `update`);
    /// an earlier one, or any on a missing document, is FAILED_PRECONDITION with both versions
    /// in microseconds (0 where there is no document).
    func testAnUpdateTimePreconditionIsRefusedInTheEmulatorsWords() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(1)])])
            let stale = try await served.get("books/dune").updateTime
            try await served.commit([served.set("books/dune", ["pages": .integer(2)])])
            let current = try await served.get("books/dune").updateTime
            var future = current
            future.seconds += 3600

            var delete = Google_Firestore_V1_Write()
            delete.delete = served.name("books/dune")
            delete.currentDocument.updateTime = future
            let later = await status { try await served.commit([delete]) }
            XCTAssertEqual(later?.0, .invalidArgument, "\(served.backend): \(String(describing: later))")
            XCTAssertEqual(later?.1, "Invalid base version, it is greater than the stored version: \(served.name("books/dune"))", "\(served.backend)")
            let laterSet = await status { try await served.commit([Self.set(served, pages: 3, ifUpdatedAt: future)]) }
            XCTAssertEqual(laterSet?.0, .invalidArgument, "\(served.backend): \(String(describing: laterSet))")

            let earlier = await status { try await served.commit([Self.set(served, pages: 3, ifUpdatedAt: stale)]) }
            XCTAssertEqual(earlier?.0, .failedPrecondition, "\(served.backend)")
            XCTAssertEqual(earlier?.1, "the stored version (\(Self.micros(current))) does not match the required base version (\(Self.micros(stale)))", "\(served.backend)")

            delete.delete = served.name("books/missing")
            let missing = await status { try await served.commit([delete]) }
            XCTAssertEqual(missing?.0, .failedPrecondition, "\(served.backend)")
            XCTAssertEqual(missing?.1, "the stored version (0) does not match the required base version (\(Self.micros(future)))", "\(served.backend)")
            assertSame(try await served.get("books/dune").fields["pages"], .integer(2), "\(served.backend): nothing written")
        }
    }

    /// As Google's emulator answers (measured), and as `WriteResult.update_time` says: "If the
    /// write did not actually change the document, this will be the previous update_time". The
    /// commit's own time is still new; a delete answers without an update time.
    func testAWriteThatChangesNothingAnswersWithThePreviousUpdateTime() async throws {
        try await ServedStore.eachBackend { served in
            let b = served.backend
            let first = try await served.commit([served.set("books/dune", ["pages": .integer(1)]), served.set("books/emma", ["pages": .integer(1)])])
            let before = try await served.get("books/dune")
            var delete = Google_Firestore_V1_Write()
            delete.delete = served.name("books/missing")
            let again = try await served.commit([served.set("books/dune", ["pages": .integer(1)]), served.set("books/emma", ["pages": .integer(2)]), delete])
            XCTAssertEqual(again.writeResults.map(\.updateTime), [before.updateTime, again.commitTime, Google_Protobuf_Timestamp()], "\(b)")
            XCTAssertFalse(again.writeResults[2].hasUpdateTime, "\(b)")
            XCTAssertTrue(Self.isLater(again.commitTime, than: first.commitTime), "\(b)")
            let after = try await served.get("books/dune")
            XCTAssertEqual([after.createTime, after.updateTime], [before.createTime, before.updateTime], "\(b): the stored times")

            let alone = try await served.commit([served.set("books/dune", ["pages": .integer(1)])])
            XCTAssertEqual(alone.writeResults.first?.updateTime, before.updateTime, "\(b)")
            XCTAssertFalse(Self.isLater(again.commitTime, than: alone.commitTime), "\(b): a commit that changes nothing still has a time of its own")
            let held = try await served.commit([Self.set(served, pages: 2, ifUpdatedAt: before.updateTime)])
            XCTAssertTrue(Self.isLater(try XCTUnwrap(held.writeResults.first).updateTime, than: before.updateTime),
                          "\(b): a precondition on the time from before the writes that changed nothing holds")
        }
    }

    /// Google's emulator, measured: an increment by 0, a maximum below the value, a union of
    /// what the array holds and a removal of what it lacks change nothing; an increment by 0.0
    /// of an integer makes it a double, and a server timestamp is the commit's new time.
    func testATransformThatLeavesTheValueAsItWasChangesNothing() async throws {
        try await ServedStore.eachBackend { served in
            let b = served.backend
            try await served.commit([served.set("counters/a", ["n": .integer(5), "tags": .array([.string("x")])])])
            let before = try await served.get("counters/a").updateTime
            func transformed(_ change: (inout Google_Firestore_V1_DocumentTransform.FieldTransform) -> Void, field: String = "n") async throws
                -> Google_Firestore_V1_CommitResponse {
                var transform = Google_Firestore_V1_DocumentTransform.FieldTransform()
                transform.fieldPath = field
                change(&transform)
                var write = Google_Firestore_V1_Write()
                write.transform.document = served.name("counters/a")
                write.transform.fieldTransforms = [transform]
                return try await served.commit([write])
            }
            for (what, response) in [("increment by 0", try await transformed { $0.increment = .integer(0) }),
                                     ("maximum below", try await transformed { $0.maximum = .integer(3) }),
                                     ("union of what is there", try await transformed({ $0.appendMissingElements.values = [.string("x")] }, field: "tags")),
                                     ("removal of what is not", try await transformed({ $0.removeAllFromArray.values = [.string("y")] }, field: "tags"))] {
                XCTAssertEqual(response.writeResults.first?.updateTime, before, "\(b): \(what)")
            }
            for (what, response) in [("increment by 0.0", try await transformed { $0.increment = .double(0) }),
                                     ("server timestamp", try await transformed { $0.setToServerValue = .requestTime })] {
                XCTAssertEqual(response.writeResults.first?.updateTime, response.commitTime, "\(b): \(what)")
            }
        }
    }

    /// Firestore's equality of values, as the emulator compares them (measured): 1.0 is not 1,
    /// -0.0 is not 0.0, NaN is NaN; and a document one commit deletes and makes again has changed.
    func testOnlyTheSameTypedValuesAreNoChange() async throws {
        try await ServedStore.eachBackend { served in
            let b = served.backend
            for (what, first, second, changes) in [("1.0 after 1", Google_Firestore_V1_Value.integer(1), Google_Firestore_V1_Value.double(1), true),
                                                   ("-0.0 after 0.0", .double(0), .double(-0.0), true),
                                                   ("NaN after NaN", .double(.nan), .double(.nan), false),
                                                   ("a map in another order", .map(["a": .integer(1), "b": .integer(2)]), .map(["b": .integer(2), "a": .integer(1)]), false)] {
                let made = try await served.commit([served.set("values/v", ["v": first])])
                let response = try await served.commit([served.set("values/v", ["v": second])])
                XCTAssertEqual(response.writeResults.first?.updateTime, changes ? response.commitTime : made.commitTime, "\(b): \(what)")
            }
            try await served.commit([served.set("values/v", ["v": .integer(1)])])
            var delete = Google_Firestore_V1_Write()
            delete.delete = served.name("values/v")
            let again = try await served.commit([delete, served.set("values/v", ["v": .integer(1)])])
            XCTAssertEqual(again.writeResults.map(\.updateTime), [again.commitTime, again.commitTime], "\(b): deleted and made again")
        }
    }

    private static func micros(_ time: Google_Protobuf_Timestamp) -> Int64 { time.seconds * 1_000_000 + Int64(time.nanos / 1000) }

    private static func set(_ served: ServedStore, pages: Int64, ifUpdatedAt time: Google_Protobuf_Timestamp) -> Google_Firestore_V1_Write {
        var write = served.set("books/dune", ["pages": .integer(pages)])
        write.currentDocument.updateTime = time
        return write
    }

    private static func isLater(_ a: Google_Protobuf_Timestamp, than b: Google_Protobuf_Timestamp) -> Bool {
        (a.seconds, a.nanos) > (b.seconds, b.nanos)
    }
}

import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore
import SwiftProtobuf
import XCTest

/// Documents' create and update times through the server: kept by the store, moved by every
/// write, and what an `update_time` precondition compares with.
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

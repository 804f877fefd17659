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

    private static func set(_ served: ServedStore, pages: Int64, ifUpdatedAt time: Google_Protobuf_Timestamp) -> Google_Firestore_V1_Write {
        var write = served.set("books/dune", ["pages": .integer(pages)])
        write.currentDocument.updateTime = time
        return write
    }

    private static func isLater(_ a: Google_Protobuf_Timestamp, than b: Google_Protobuf_Timestamp) -> Bool {
        (a.seconds, a.nanos) > (b.seconds, b.nanos)
    }
}

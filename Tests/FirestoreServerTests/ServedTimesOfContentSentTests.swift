import DocumentStore
@testable import FirestoreServer
import FirestoreWire
import XCTest

/// Every read `shelf serve` answers (a get, a query, a listing, a `Listen` stream) sends each
/// document with the times of the content it sends (`ServedDatabase.wireDocuments`). A
/// snapshot is read before its times are: a write in between once sent the old content with
/// the new update time, and a client that compares update times (Python's watch, an SDK's
/// cache) then took the new content for no change and never showed it.
final class ServedTimesOfContentSentTests: XCTestCase {
    func testADocumentWrittenAfterItsSnapshotIsSentAsItIsNowWithItsTimes() async throws {
        try await ServedStore.eachBackend { served in
            let dune = served.store.document("books/dune")
            try await dune.setData(["born": 1900])
            let old = try await dune.getDocument()
            try await dune.setData(["born": 1815])
            let database = ServedDatabase(name: ServedStore.database, store: served.store)
            let sent = try XCTUnwrap(try SharedWireDocuments().documents([old], in: database).first ?? nil, "\(served.backend)")
            let times = try XCTUnwrap(try served.store.documentTimes(["books/dune"]).first ?? nil)
            XCTAssertEqual(sent.fields["born"]?.integerValue, 1815, "\(served.backend): the content the times are of")
            XCTAssertEqual(sent.updateTime, WireValues.wire(times.updated), "\(served.backend)")
        }
    }

    func testADocumentThatLeftTheQueryMeanwhileIsNotSentForIt() async throws {
        try await ServedStore.eachBackend { served in
            let dune = served.store.document("books/dune")
            try await dune.setData(["born": 1900])
            let query = served.store.collection("books").whereField("born", isGreaterThan: 1850)
            let old = try await query.getDocuments().documents
            try await dune.setData(["born": 1815])
            let database = ServedDatabase(name: ServedStore.database, store: served.store)
            let sent = try database.wireDocuments(old, query: query)
            XCTAssertEqual(sent.count, 1)
            XCTAssertNil(sent[0], "\(served.backend): its removal follows from the listener")
        }
    }

    func testAnUnchangedDocumentIsSentAsItsSnapshotHoldsIt() async throws {
        try await ServedStore.eachBackend { served in
            let dune = served.store.document("books/dune")
            try await dune.setData(["born": 1900])
            let snapshot = try await dune.getDocument()
            let database = ServedDatabase(name: ServedStore.database, store: served.store)
            let shared = SharedWireDocuments()
            let sent = try XCTUnwrap(try shared.documents([snapshot], in: database).first ?? nil)
            let times = try XCTUnwrap(try served.store.documentTimes(["books/dune"]).first ?? nil)
            XCTAssertEqual(sent.fields["born"]?.integerValue, 1900)
            XCTAssertEqual(sent.updateTime, WireValues.wire(times.updated))
            _ = try shared.documents([snapshot], in: database)
            XCTAssertEqual(shared.conversions, 1, "\(served.backend): converted once")
        }
    }
}

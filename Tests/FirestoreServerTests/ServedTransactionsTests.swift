import FirestoreProtocol
import GRPCCore
import XCTest

/// BeginTransaction, reads in a transaction, Commit and Rollback.
final class ServedTransactionsTests: XCTestCase {
    private static func begin(_ served: ServedStore, readOnly: Bool = false) async throws -> Data {
        var request = Google_Firestore_V1_BeginTransactionRequest()
        request.database = ServedStore.database
        if readOnly { request.options.readOnly = .init() } else { request.options.readWrite = .init() }
        return try await served.client.beginTransaction(request).transaction
    }

    private static func read(_ served: ServedStore, _ path: String, in transaction: Data) async throws {
        var request = Google_Firestore_V1_GetDocumentRequest()
        request.name = served.name(path)
        request.transaction = transaction
        _ = try await served.client.getDocument(request)
    }

    func testACommitAfterAnotherWriteChangedWhatTheTransactionReadIsAbortedAndWritesNothing() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("counters/c", ["n": .integer(1)])])
            let transaction = try await Self.begin(served)
            try await Self.read(served, "counters/c", in: transaction)
            try await served.commit([served.set("counters/c", ["n": .integer(5)])])
            let aborted = await status { try await served.commit([served.set("counters/c", ["n": .integer(2)])], transaction: transaction) }
            XCTAssertEqual(aborted?.0, .aborted, "\(served.backend)")
            assertSame(try await served.get("counters/c").fields["n"], .integer(5), "\(served.backend)")

            let retry = try await Self.begin(served)
            try await Self.read(served, "counters/c", in: retry)
            try await served.commit([served.set("counters/c", ["n": .integer(6)])], transaction: retry)
            assertSame(try await served.get("counters/c").fields["n"], .integer(6), "\(served.backend)")
        }
    }

    func testAQueryStartingATransactionAnswersWithItsIdAndRecordsWhatItRead() async throws {
        try await ServedStore.with(.folder) { served in
            try await served.commit([served.set("books/a", ["n": .integer(1)])])
            var request = Google_Firestore_V1_RunQueryRequest()
            request.parent = ServedStore.database + "/documents"
            request.structuredQuery = .collection("books")
            request.newTransaction.readWrite = .init()
            let transaction = try await served.client.runQuery(request) { response in
                var id = Data()
                for try await message in response.messages where !message.transaction.isEmpty { id = message.transaction }
                return id
            }
            XCTAssertFalse(transaction.isEmpty)
            try await served.commit([served.set("books/a", ["n": .integer(2)])])
            let aborted = await status { try await served.commit([], transaction: transaction) }
            XCTAssertEqual(aborted?.0, .aborted)
        }
    }

    func testAReadOnlyTransactionCannotWriteAndAnEndedOneCannotCommit() async throws {
        try await ServedStore.with(.folder) { served in
            let readOnly = try await Self.begin(served, readOnly: true)
            let refused = await status { try await served.commit([served.set("books/a", [:])], transaction: readOnly) }
            XCTAssertEqual(refused?.0, .invalidArgument)
            let transaction = try await Self.begin(served)
            var rollback = Google_Firestore_V1_RollbackRequest()
            rollback.database = ServedStore.database
            rollback.transaction = transaction
            _ = try await served.client.rollback(rollback)
            let ended = await status { try await served.commit([], transaction: transaction) }
            XCTAssertEqual(ended?.0, .invalidArgument)
            XCTAssertTrue(ended?.1.contains("is not open") ?? false, ended?.1 ?? "")
        }
    }
}

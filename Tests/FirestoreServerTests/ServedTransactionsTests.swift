import DocumentStore
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

    /// Returns once a call waits for the store's transaction locks, or `done` holds: a state
    /// to reach, not a time to wait.
    private static func waitUntilOneWaits(_ served: ServedStore, or done: () -> Bool = { false },
                                          file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while served.store.transactionLocks.waiting == 0 && !done() {
            guard ContinuousClock.now < deadline else { return XCTFail("no call waits for a lock", file: file, line: line) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    private static func rollback(_ served: ServedStore, _ transaction: Data) async throws {
        var request = Google_Firestore_V1_RollbackRequest()
        request.database = ServedStore.database
        request.transaction = transaction
        _ = try await served.client.rollback(request)
    }

    /// Runs a query of `collection` where `field == value` in `transaction`; its documents' ids.
    private static func query(_ served: ServedStore, _ collection: String, where field: String, is value: String,
                              in transaction: Data) async throws -> [String] {
        var request = Google_Firestore_V1_RunQueryRequest()
        request.parent = ServedStore.database + "/documents"
        var query = Google_Firestore_V1_StructuredQuery.collection(collection)
        query.where.fieldFilter.field.fieldPath = field
        query.where.fieldFilter.op = .equal
        query.where.fieldFilter.value = .string(value)
        request.structuredQuery = query
        request.transaction = transaction
        return try await served.client.runQuery(request) { response in
            var ids: [String] = []
            for try await message in response.messages where message.hasDocument { ids.append(String(message.document.name.split(separator: "/").last!)) }
            return ids
        }
    }

    /// Writes a document as another program that takes no locks would: its file, or its row
    /// by SQL (a write through the store, even the Swift API's, waits for the transaction).
    private static func writeWithoutLocks(_ served: ServedStore, _ path: String, json: String) throws {
        switch served.backend {
        case .folder:
            try Data(json.utf8).write(to: served.location.appendingPathComponent(path + ".json"))
        case .postgres:
            let parent = String(path[..<path.lastIndex(of: "/")!])
            _ = try PostgresCluster.shared().psql("""
                INSERT INTO shelf_documents (path, parent, collection_id, fields)
                VALUES ('\(path)', '\(parent)', '\(parent.split(separator: "/").last!)', '\(json)'::jsonb)
                ON CONFLICT (path) DO UPDATE SET fields = excluded.fields
                """, database: served.location.lastPathComponent)
        }
    }

    /// Issue 51: as Firestore's, a transaction's read locks the document: a write through the
    /// server waits for the transaction and, past the wait, is aborted with the emulator's
    /// message; a write by another program (no lock) still aborts the transaction's commit.
    func testAWriteWaitsForTheTransactionThatReadItsDocumentAndAnotherProgramsWriteAbortsIt() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("counters/c", ["n": .integer(1)])])
            let transaction = try await Self.begin(served)
            try await Self.read(served, "counters/c", in: transaction)
            let waited = await status { try await served.commit([served.set("counters/c", ["n": .integer(5)])]) }
            XCTAssertEqual(waited?.0, .aborted, "\(served.backend)")
            XCTAssertEqual(waited?.1, "Transaction lock timeout.", "\(served.backend)")
            try await served.commit([served.set("counters/c", ["n": .integer(2)])], transaction: transaction)
            assertSame(try await served.get("counters/c").fields["n"], .integer(2), "\(served.backend)")

            let second = try await Self.begin(served)
            try await Self.read(served, "counters/c", in: second)
            try Self.writeWithoutLocks(served, "counters/c", json: #"{"n": 7}"#)
            let aborted = await status { try await served.commit([served.set("counters/c", ["n": .integer(3)])], transaction: second) }
            XCTAssertEqual(aborted?.0, .aborted, "\(served.backend)")
            assertSame(try await served.get("counters/c").fields["n"], .integer(7), "\(served.backend)")
            try await Self.rollback(served, second)  // the client's rollback of what was aborted: no error
            try await served.commit([served.set("counters/c", ["n": .integer(8)])])  // its locks went with it: no wait, no abort
        }
    }

    /// Issue 51: two transactions that each book a slot only if a query finds none both
    /// booked it. The second's query waits for the first transaction, then finds its booking.
    func testATransactionsQueryWaitsForAnotherThatQueriedTheSameCollectionSoOnlyOneBooks() async throws {
        try await ServedStore.eachBackend { served in
            let first = try await Self.begin(served), second = try await Self.begin(served)
            let firstFinds = try await Self.query(served, "bookings", where: "slot", is: "s1", in: first)
            XCTAssertEqual(firstFinds, [])
            let secondQuery = Task { try await Self.query(served, "bookings", where: "slot", is: "s1", in: second) }
            try await Self.waitUntilOneWaits(served)  // not needed for the outcome, only for the case of a second that waits
            try await served.commit([served.set("bookings/b1", ["slot": .string("s1")])], transaction: first)
            let secondFinds = try await secondQuery.value
            XCTAssertEqual(secondFinds, ["b1"], "\(served.backend): the second sees the first's booking")
            try await Self.rollback(served, second)
        }
    }

    /// Deadlock: each of two transactions holds what the other reads next. The older one
    /// wounds the younger (Firestore's wound-wait), whose read is aborted, and goes on.
    func testOfTwoTransactionsWaitingForEachOtherTheOlderGoesOnAndTheYoungerIsAborted() async throws {
        try await ServedStore.with(.folder) { served in
            try await served.commit([served.set("c/a", [:]), served.set("c/b", [:])])
            let older = try await Self.begin(served), younger = try await Self.begin(served)
            try await Self.read(served, "c/a", in: older)
            try await Self.read(served, "c/b", in: younger)
            let youngerReadsA = Task { try await Self.read(served, "c/a", in: younger) }
            try await Self.waitUntilOneWaits(served)
            try await Self.read(served, "c/b", in: older)
            let wounded = await status { try await youngerReadsA.value }
            XCTAssertEqual(wounded?.0, .aborted)
            XCTAssertTrue(wounded?.1.contains("contention") ?? false, wounded?.1 ?? "")
            try await served.commit([served.set("c/a", ["by": .string("older")]), served.set("c/b", ["by": .string("older")])], transaction: older)
            assertSame(try await served.get("c/b").fields["by"], .string("older"))
        }
    }

    /// Issue 51: the Swift API and the server share the store's lock table: a program's write
    /// of a document a client's transaction read waits for that transaction's commit.
    func testASwiftAPIWriteWaitsForAServedTransactionThatReadItsDocument() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("counters/c", ["n": .integer(1)])])
            let transaction = try await Self.begin(served)
            try await Self.read(served, "counters/c", in: transaction)
            let written = Locked(false)
            let write = Task {
                try await served.store.document("counters/c").setData(["n": 100])
                written.withLock { $0 = true }
            }
            try await Self.waitUntilOneWaits(served) { written.withLock { $0 } }
            XCTAssertFalse(written.withLock { $0 }, "\(served.backend): the write waits")
            try await served.commit([served.set("counters/c", ["n": .integer(2)])], transaction: transaction)
            try await write.value
            assertSame(try await served.get("counters/c").fields["n"], .integer(100), "\(served.backend): it came after the commit")
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
            try Self.writeWithoutLocks(served, "books/a", json: #"{"n": 2}"#)
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
            try await Self.rollback(served, transaction)
            let ended = await status { try await served.commit([], transaction: transaction) }
            XCTAssertEqual(ended?.0, .invalidArgument)
            XCTAssertTrue(ended?.1.contains("is not open") ?? false, ended?.1 ?? "")
            try await Self.rollback(served, transaction)  // again: no error, as the emulator
            let never = await status { try await Self.rollback(served, Data(repeating: 7, count: 16)) }
            XCTAssertEqual(never?.0, .invalidArgument, "a transaction this server never began")
        }
    }
}

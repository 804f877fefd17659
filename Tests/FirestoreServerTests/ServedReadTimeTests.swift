import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore
import SwiftProtobuf
import XCTest

/// Reads at a past `read_time`, on each backend: the documents as they were then (a document
/// changed or deleted since as it was, one created since missing), in gets, batch gets,
/// queries, aggregations, listings and read-only transactions, with the read time echoed; and
/// read times refused as Google's emulator refuses them, with its words.
final class ServedReadTimeTests: XCTestCase {
    func testAGetAtAPastTimeAnswersTheDocumentAsItWasThen() async throws {
        try await ServedStore.eachBackend { served in
            let first = try await served.commit([served.set("books/dune", ["pages": .integer(1)])]).commitTime
            let second = try await served.commit([served.set("books/dune", ["pages": .integer(2)])]).commitTime
            try await served.commit([served.set("books/emma", ["pages": .integer(9)])])
            let deleted = try await served.commit([served.delete("books/dune")]).commitTime

            let atFirst = try await served.get("books/dune", at: first)
            XCTAssertEqual(atFirst.fields["pages"], .integer(1), "\(served.backend)")
            XCTAssertEqual(atFirst.updateTime, first, "\(served.backend): the version's own update time")
            XCTAssertEqual(atFirst.createTime, first, "\(served.backend)")
            let atSecond = try await served.get("books/dune", at: second)
            XCTAssertEqual(atSecond.fields["pages"], .integer(2), "\(served.backend)")
            XCTAssertEqual(atSecond.createTime, first, "\(served.backend)")
            let gone = await status { try await served.get("books/dune", at: deleted) }
            XCTAssertEqual(gone?.0, .notFound, "\(served.backend): deleted at that time")
            let notYet = await status { try await served.get("books/emma", at: second) }
            XCTAssertEqual(notYet?.0, .notFound, "\(served.backend): created after")

            let batch = try await served.batchGet(["books/dune", "books/emma"], at: second)
            XCTAssertEqual(batch.map(\.found.fields["pages"]), [.integer(2), nil], "\(served.backend)")
            XCTAssertEqual(batch.map(\.readTime), [second, second], "\(served.backend): the read time echoed")
        }
    }

    func testAQueryAndItsAggregationsAtAPastTimeSeeTheDocumentsOfThen() async throws {
        try await ServedStore.eachBackend { served in
            let before = try await served.commit([served.set("books/a", ["n": .integer(1)]), served.set("books/b", ["n": .integer(2)])]).commitTime
            try await served.commit([served.set("books/a", ["n": .integer(5)]), served.delete("books/b"), served.set("books/c", ["n": .integer(3)])])

            let query = Google_Firestore_V1_StructuredQuery.collection("books").filtered("n", .greaterThanOrEqual, .integer(1)).ordered("n")
            let (documents, readTimes) = try await served.run(query, at: before)
            XCTAssertEqual(documents.map { $0.name.split(separator: "/").last! }, ["a", "b"], "\(served.backend)")
            XCTAssertEqual(documents.map(\.fields["n"]), [.integer(1), .integer(2)], "\(served.backend)")
            XCTAssertEqual(Set(readTimes), [before], "\(served.backend)")
            let now = try await served.run(query)
            XCTAssertEqual(now, ["c", "a"], "\(served.backend)")

            let (results, readTime) = try await served.aggregate(query, at: before)
            XCTAssertEqual(results["count"], .integer(2), "\(served.backend)")
            XCTAssertEqual(results["total"], .integer(3), "\(served.backend)")
            XCTAssertEqual(readTime, before, "\(served.backend)")
        }
    }

    func testListingsAtAPastTimeListTheDocumentsAndCollectionsOfThen() async throws {
        try await ServedStore.eachBackend { served in
            let before = try await served.commit([served.set("books/a", ["n": .integer(1)]), served.set("books/b", ["n": .integer(2)])]).commitTime
            try await served.commit([served.delete("books/a"), served.set("books/c", ["n": .integer(3)]), served.set("films/x", ["n": .integer(4)])])

            var list = Google_Firestore_V1_ListDocumentsRequest()
            list.parent = ServedStore.database + "/documents"
            list.collectionID = "books"
            list.readTime = before
            let listed = try await served.client.listDocuments(list).documents
            XCTAssertEqual(listed.map { $0.name.split(separator: "/").last! }, ["a", "b"], "\(served.backend)")

            var collections = Google_Firestore_V1_ListCollectionIdsRequest()
            collections.parent = ServedStore.database + "/documents"
            collections.readTime = before
            let ids = try await served.client.listCollectionIds(collections).collectionIds
            XCTAssertEqual(ids, ["books"], "\(served.backend): films came later")
        }
    }

    func testAReadOnlyTransactionBegunAtAPastTimeReadsAtThatTime() async throws {
        try await ServedStore.eachBackend { served in
            let before = try await served.commit([served.set("books/dune", ["pages": .integer(1)])]).commitTime
            try await served.commit([served.set("books/dune", ["pages": .integer(2)])])

            var begin = Google_Firestore_V1_BeginTransactionRequest()
            begin.database = ServedStore.database
            begin.options.readOnly.readTime = before
            let transaction = try await served.client.beginTransaction(begin).transaction
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = served.name("books/dune")
            get.transaction = transaction
            let read = try await served.client.getDocument(get)
            XCTAssertEqual(read.fields["pages"], .integer(1), "\(served.backend)")
            let (documents, readTimes) = try await served.run(.collection("books"), transaction: transaction)
            XCTAssertEqual(documents.map(\.fields["pages"]), [.integer(1)], "\(served.backend)")
            XCTAssertEqual(readTimes.first, before, "\(served.backend)")
        }
    }

    func testReadTimesBeyondTheWindowAreRefusedAsFirestoreRefusesThem() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(1)])])
            let now = Date().timeIntervalSince1970
            func time(_ seconds: Double, nanos: Int32 = 0) -> Google_Protobuf_Timestamp {
                Google_Protobuf_Timestamp(seconds: Int64(seconds), nanos: nanos)
            }
            let future = await status { try await served.get("books/dune", at: time(now + 10)) }
            XCTAssertEqual(future?.0, .invalidArgument, "\(served.backend)")
            XCTAssertEqual(future?.1, "The requested 'read_time' cannot be in the future.", "\(served.backend)")
            let old = await status { try await served.get("books/dune", at: time(now - 2 * 3600)) }
            XCTAssertEqual(old?.0, .failedPrecondition, "\(served.backend)")
            XCTAssertEqual(old?.1, "The requested 'read_time' is too old.", "\(served.backend)")
            let fine = await status { try await served.get("books/dune", at: time(now - 1, nanos: 1)) }
            XCTAssertEqual(fine?.0, .invalidArgument, "\(served.backend)")
            XCTAssertEqual(fine?.1, "timestamp cannot have more than microseconds precision", "\(served.backend)")
            let epoch = await status { try await served.get("books/dune", at: time(0)) }
            XCTAssertEqual(epoch?.1, "Only timestamps past epoch are supported.", "\(served.backend)")

            var begin = Google_Firestore_V1_BeginTransactionRequest()
            begin.database = ServedStore.database
            begin.options.readOnly.readTime = time(now - 2 * 3600)
            let beginOld = await status { try await served.client.beginTransaction(begin) }
            XCTAssertEqual(beginOld?.0, .failedPrecondition, "\(served.backend)")
        }
    }
}

/// Reads at a read time, briefly.
extension ServedStore {
    func delete(_ path: String) -> Google_Firestore_V1_Write {
        var write = Google_Firestore_V1_Write()
        write.delete = name(path)
        return write
    }

    func get(_ path: String, at time: Google_Protobuf_Timestamp) async throws -> Google_Firestore_V1_Document {
        var request = Google_Firestore_V1_GetDocumentRequest()
        request.name = name(path)
        request.readTime = time
        return try await client.getDocument(request)
    }

    func batchGet(_ paths: [String], at time: Google_Protobuf_Timestamp) async throws -> [Google_Firestore_V1_BatchGetDocumentsResponse] {
        var request = Google_Firestore_V1_BatchGetDocumentsRequest()
        request.database = Self.database
        request.documents = paths.map(name)
        request.readTime = time
        return try await client.batchGetDocuments(request) { response in
            var messages: [Google_Firestore_V1_BatchGetDocumentsResponse] = []
            for try await message in response.messages { messages.append(message) }
            return messages
        }
    }

    /// The query's documents and the read time of each response.
    func run(_ query: Google_Firestore_V1_StructuredQuery, at time: Google_Protobuf_Timestamp? = nil,
             transaction: Data? = nil) async throws -> ([Google_Firestore_V1_Document], [Google_Protobuf_Timestamp]) {
        var request = Google_Firestore_V1_RunQueryRequest()
        request.parent = Self.database + "/documents"
        request.structuredQuery = query
        if let time { request.readTime = time }
        if let transaction { request.transaction = transaction }
        return try await client.runQuery(request) { response in
            var documents: [Google_Firestore_V1_Document] = [], times: [Google_Protobuf_Timestamp] = []
            for try await message in response.messages {
                if message.hasDocument { documents.append(message.document) }
                times.append(message.readTime)
            }
            return (documents, times)
        }
    }

    /// The query's count (`count`) and sum of `n` (`total`), and the response's read time.
    func aggregate(_ query: Google_Firestore_V1_StructuredQuery,
                   at time: Google_Protobuf_Timestamp) async throws -> ([String: Google_Firestore_V1_Value], Google_Protobuf_Timestamp) {
        var request = Google_Firestore_V1_RunAggregationQueryRequest()
        request.parent = Self.database + "/documents"
        request.structuredAggregationQuery.structuredQuery = query
        var count = Google_Firestore_V1_StructuredAggregationQuery.Aggregation()
        count.alias = "count"
        count.count = .init()
        var sum = Google_Firestore_V1_StructuredAggregationQuery.Aggregation()
        sum.alias = "total"
        sum.sum.field.fieldPath = "n"
        request.structuredAggregationQuery.aggregations = [count, sum]
        request.readTime = time
        return try await client.runAggregationQuery(request) { response in
            var result: ([String: Google_Firestore_V1_Value], Google_Protobuf_Timestamp) = ([:], .init())
            for try await message in response.messages { result = (message.result.aggregateFields, message.readTime) }
            return result
        }
    }
}

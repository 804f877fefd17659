@testable import DocumentStore
import FirestoreProtocol
@testable import FirestoreServer
import GRPCCore
import XCTest

/// The Listen stream as the client libraries use it.
final class ServedListenTests: XCTestCase {
    private typealias Response = Google_Firestore_V1_ListenResponse

    /// A one-word summary of each message: "add 7", "change dune 7", "remove dune 7", "current 7", "consistent".
    private static func summary(_ message: Response) -> String {
        switch message.responseType {
        case .targetChange(let change):
            let ids = change.targetIds.map(String.init).joined(separator: ",")
            switch change.targetChangeType {
            case .noChange: return change.targetIds.isEmpty && change.hasReadTime ? "consistent" : "no change \(ids)"
            case .add: return "add \(ids)"
            case .remove: return "remove target \(ids)" + (change.hasCause ? " \(change.cause.code)" : "")
            case .current: return "current \(ids)"
            case .reset: return "reset \(ids)"
            case .UNRECOGNIZED(let n): return "unknown \(n)"
            }
        case .documentChange(let change): return "change \(change.document.name.split(separator: "/").last!) \(change.targetIds.map(String.init).joined(separator: ","))"
        case .documentRemove(let remove): return "remove \(remove.document.split(separator: "/").last!)"
        case .documentDelete(let delete): return "delete \(delete.document.split(separator: "/").last!)"
        case .filter: return "filter"
        case nil: return "empty"
        }
    }

    private static func addTarget(_ id: Int32, query: Google_Firestore_V1_StructuredQuery? = nil, documents: [String] = []) -> Google_Firestore_V1_ListenRequest {
        var request = Google_Firestore_V1_ListenRequest()
        request.database = ServedStore.database
        request.addTarget.targetID = id
        if let query {
            request.addTarget.query.parent = ServedStore.database + "/documents"
            request.addTarget.query.structuredQuery = query
        } else {
            request.addTarget.documents.documents = documents
        }
        return request
    }

    /// Reads messages up to and including the next consistent point.
    private static func untilConsistent(_ messages: inout RPCAsyncSequence<Response, any Error>.AsyncIterator) async throws -> [String] {
        var seen: [String] = []
        while let message = try await messages.next() {
            seen.append(summary(message))
            if seen.last == "consistent" { break }
        }
        return seen
    }

    func testAQueryTargetGetsItsDocumentsThenEachChangeFromTheServerOrTheStoreAtConsistentPoints() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412)]), served.set("books/emma", ["pages": .integer(50)])])
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            sending.yield(Self.addTarget(7, query: Google_Firestore_V1_StructuredQuery.collection("books").filtered("pages", .greaterThan, .integer(100))))
            let b = served.backend
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                var messages = response.messages.makeAsyncIterator()
                assertSame(try await Self.untilConsistent(&messages), ["add 7", "change dune 7", "current 7", "consistent"], "\(b)")
                try await served.commit([served.set("books/emma", ["pages": .integer(500)])])
                assertSame(try await Self.untilConsistent(&messages), ["change emma 7", "consistent"], "a write through the server: \(b)")
                try await served.store.document("books/dune").setData(["pages": 10])
                assertSame(try await Self.untilConsistent(&messages), ["remove dune", "consistent"], "a write by the store's own API: \(b)")
                var remove = Google_Firestore_V1_ListenRequest()
                remove.database = ServedStore.database
                remove.removeTarget = 7
                sending.yield(remove)
                assertSame(Self.summary(try await messages.next()!), "remove target 7", "\(b)")
                sending.finish()
            })
        }
    }

    /// A query with an offset is listened to as Google's emulator serves it (Python's
    /// `query.offset(1).on_snapshot(cb)`): the client sees the documents after the skipped
    /// ones, and each change to that window, also one that only shifts it.
    func testAQueryTargetWithAnOffsetGetsTheDocumentsAfterItAndEachChangeOfThatWindow() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit((0..<3).map { served.set("books/d\($0)", ["n": .integer(Int64($0))]) })
            var skipping = Google_Firestore_V1_StructuredQuery.collection("books").ordered("n")
            skipping.offset = 1
            var limited = skipping
            limited.limit = .with { $0.value = 1 }
            let window = limited
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            sending.yield(Self.addTarget(7, query: skipping))
            let b = served.backend
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                var messages = response.messages.makeAsyncIterator()
                var first: [String] = []
                // A target refused (as it was) is removed and nothing follows: no wait for ever.
                while let message = try await messages.next() {
                    first.append(Self.summary(message))
                    if first.last!.hasPrefix("remove target") || first.last == "consistent" { break }
                }
                guard first == ["add 7", "change d1 7", "change d2 7", "current 7", "consistent"] else {
                    sending.finish()
                    return XCTFail("\(first) \(b)")
                }
                sending.yield(Self.addTarget(8, query: window))
                assertSame(try await Self.untilConsistent(&messages), ["add 8", "change d1 8", "current 8", "consistent"], "with a limit: \(b)")
                // A document before the window shifts it: d0 comes in, and leaves the limited one with d1.
                try await served.commit([served.set("books/m", ["n": .integer(-1)])])
                // Each target's snapshot comes to its consistent point, in either order.
                let shifted = try await Self.untilConsistent(&messages) + Self.untilConsistent(&messages)
                assertSame(shifted.filter { $0 != "consistent" }.sorted(), ["change d0 7", "change d0 8", "remove d1"], "\(shifted) \(b)")
                sending.yield(.with { $0.database = ServedStore.database; $0.removeTarget = 8 })
                assertSame(Self.summary(try await messages.next()!), "remove target 8", "\(b)")
                try await served.store.document("books/d2").delete()
                assertSame(try await Self.untilConsistent(&messages), ["remove d2", "consistent"], "a delete in the window: \(b)")
                try await served.commit([served.set("books/d1", ["n": .integer(1), "x": .integer(1)])])
                assertSame(try await Self.untilConsistent(&messages), ["change d1 7", "consistent"], "a change in the window: \(b)")
                try await served.commit([served.set("books/m", ["n": .integer(-1), "x": .integer(1)])])
                assertSame(try await Self.untilConsistent(&messages), ["consistent"], "a change among the skipped: \(b)")
                sending.finish()
            })
        }
    }

    /// A target's first documents are one entry of the stream's bounded queue, however many:
    /// counted a message each, a collection past the limit overflowed at every listen of a
    /// client slower than the server, which then never had a snapshot (Python's, from 12,000
    /// books; this test waited past 200 s before the fix).
    func testAQueryTargetOfMoreDocumentsThanTheQueueHoldsGetsThemAll() async throws {
        try await ServedStore.with(.folder) { served in
            let count = 3 * ListenStreams.queueLimit
            let books = served.location.appendingPathComponent("books")
            try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
            for index in 0..<count {
                try Data(#"{"n": \#(index)}"#.utf8).write(to: books.appendingPathComponent("b\(index).json"))
            }
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            sending.yield(Self.addTarget(3, query: Google_Firestore_V1_StructuredQuery.collection("books")))
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                // A client slower than the server, as Python's is: the stream's window fills
                // and the rest waits in the queue.
                try await Task.sleep(for: .seconds(1))
                var messages = response.messages.makeAsyncIterator()
                let seen = try await Self.untilConsistent(&messages)
                XCTAssertEqual(seen.first, "add 3")
                XCTAssertEqual(seen.filter { $0.hasPrefix("change ") }.count, count)
                XCTAssertEqual(Array(seen.suffix(2)), ["current 3", "consistent"])
                sending.finish()
            })
        }
    }

    func testAChangeFollowedByManyTargetsIsConvertedOnceForThemAll() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412)])])
            let targets: [Int32] = [1, 2, 3, 4]
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            for id in targets { sending.yield(Self.addTarget(id, query: .collection("books"))) }
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                var messages = response.messages.makeAsyncIterator()
                var seen: [String] = []
                while seen.filter({ $0.hasPrefix("current") }).count < targets.count, let message = try await messages.next() {
                    seen.append(Self.summary(message))
                }
                let before = served.server.listenConversions
                try await served.commit([served.set("books/emma", ["pages": .integer(50)])])
                var changes: [String] = []
                while changes.count < targets.count, let message = try await messages.next() {
                    if case .documentChange = message.responseType { changes.append(Self.summary(message)) }
                }
                XCTAssertEqual(changes.sorted(), targets.map { "change emma \($0)" }, "\(served.backend)")
                XCTAssertEqual(served.server.listenConversions - before, 1, "one conversion for \(targets.count) targets: \(served.backend)")
                sending.finish()
            })
        }
    }

    func testADocumentsTargetIsCurrentOnceEachDocumentWasReadAndSaysDeletes() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412)])])
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            sending.yield(Self.addTarget(3, documents: [served.name("books/dune"), served.name("books/missing")]))
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                var messages = response.messages.makeAsyncIterator()
                assertSame(try await Self.untilConsistent(&messages), ["add 3", "change dune 3", "current 3", "consistent"], "\(served.backend)")
                var delete = Google_Firestore_V1_Write()
                delete.delete = served.name("books/dune")
                try await served.commit([delete])
                assertSame(try await Self.untilConsistent(&messages), ["delete dune", "consistent"], "\(served.backend)")
                sending.finish()
            })
        }
    }

    func testABadTargetIsRemovedWithItsCauseAndTheStreamGoesOn() async throws {
        try await ServedStore.with(.folder) { served in
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            var bad = Self.addTarget(1, documents: [served.name("books")])
            bad.addTarget.documents.documents = ["not a name"]
            sending.yield(bad)
            sending.yield(Self.addTarget(2, documents: [served.name("books/dune")]))
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                var messages = response.messages.makeAsyncIterator()
                let first = try await Self.untilConsistent(&messages)
                XCTAssertEqual(first.filter { $0.hasPrefix("remove target 1") }, ["remove target 1 \(RPCError.Code.invalidArgument.rawValue)"], "\(first)")
                XCTAssertTrue(first.contains("current 2"), "\(first)")
                sending.finish()
            })
        }
    }

    func testStoppingTheServerEndsAnOpenListenStreamWithUnavailable() async throws {
        try await ServedStore.with(.folder) { served in
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            sending.yield(Self.addTarget(1, query: .collection("books")))
            do {
                try await served.client.listen(requestProducer: { writer in
                    for await request in requests { try await writer.write(request) }
                }, onResponse: { response in
                    var messages = response.messages.makeAsyncIterator()
                    _ = try await Self.untilConsistent(&messages)
                    served.server.stop()
                    while try await messages.next() != nil {}
                })
                XCTFail("the stream ended without a status")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .unavailable, "\(error)")
            }
            sending.finish()
        }
    }

    func testAClientThatGoesAwayLeavesNoListenerBehind() async throws {
        try await ServedStore.eachBackend { served in
            let before = served.store.activeWatcherCount
            let (requests, sending) = AsyncStream<Google_Firestore_V1_ListenRequest>.makeStream()
            sending.yield(Self.addTarget(1, query: .collection("books")))
            sending.yield(Self.addTarget(2, documents: [served.name("books/a"), served.name("books/b")]))
            try await served.client.listen(requestProducer: { writer in
                for await request in requests { try await writer.write(request) }
            }, onResponse: { response in
                var messages = response.messages.makeAsyncIterator()
                _ = try await Self.untilConsistent(&messages)
                _ = try await Self.untilConsistent(&messages)
                XCTAssertGreaterThan(served.store.activeWatcherCount, before)
                sending.finish()
            })
            for _ in 0..<200 where served.store.activeWatcherCount != before { try await Task.sleep(for: .milliseconds(10)) }
            XCTAssertEqual(served.store.activeWatcherCount, before, "\(served.backend)")
        }
    }
}

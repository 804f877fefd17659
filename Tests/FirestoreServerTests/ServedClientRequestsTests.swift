import FirestoreProtocol
import GRPCCore
import SwiftProtobuf
import XCTest

/// Requests as the official client libraries make them (found running scripts/python-client.py):
/// cursors on document snapshots, `recursive_delete`'s query over every collection, array
/// transforms with numbers of both kinds, strings holding U+0000.
final class ServedClientRequestsTests: XCTestCase {
    private static func cursor(_ values: [Google_Firestore_V1_Value], before: Bool) -> Google_Firestore_V1_Cursor {
        var cursor = Google_Firestore_V1_Cursor()
        cursor.values = values
        cursor.before = before
        return cursor
    }

    func testACursorAtNameTakesTheDocumentsReferenceInACollectionAndInAGroup() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit(["a", "b", "c", "d"].enumerated().map { index, id in
                served.set("books/\(id)", ["pages": .integer(index < 2 ? 100 : 200)])
            } + [served.set("books/a/notes/n1", ["x": .integer(1)]), served.set("shelves/s/notes/n2", ["x": .integer(1)])])
            // A snapshot cursor: the ordered field's value, then the document's full name.
            var query = Google_Firestore_V1_StructuredQuery.collection("books").ordered("pages").ordered("__name__")
            query.startAt = Self.cursor([.integer(100), .reference(served.name("books/b"))], before: false)
            assertSame(try await served.run(query), ["c", "d"], "start after b: \(served.backend)")
            query.startAt = Self.cursor([.integer(100), .reference(served.name("books/b"))], before: true)
            query.endAt = Self.cursor([.integer(200), .reference(served.name("books/c"))], before: false)
            assertSame(try await served.run(query), ["b", "c"], "from b to c: \(served.backend)")
            var group = Google_Firestore_V1_StructuredQuery.collection("notes", allDescendants: true).ordered("__name__")
            group.startAt = Self.cursor([.reference(served.name("books/a/notes/n1"))], before: false)
            assertSame(try await served.run(group), ["n2"], "in a group, a cursor is a path: \(served.backend)")
            // A document of another collection is a cursor too, compared by its whole name, as
            // Google's emulator compares it: after every book, or before them all.
            var elsewhere = Google_Firestore_V1_StructuredQuery.collection("books").ordered("__name__")
            elsewhere.startAt = Self.cursor([.reference(served.name("shelves/s"))], before: true)
            assertSame(try await served.run(elsewhere), [], "from shelves/s: \(served.backend)")
            elsewhere.startAt = Self.cursor([.reference(served.name("aaa/s"))], before: true)
            assertSame(try await served.run(elsewhere), ["a", "b", "c", "d"], "from aaa/s: \(served.backend)")
        }
    }

    /// What `recursive_delete` and `recursive()` send: every collection under the root,
    /// ordered by name, from the least id of a collection to the same name with `\0` after
    /// the collection's id.
    func testAQueryOverEveryCollectionFindsEachDocumentAtAnyDepthWithinItsCursors() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([
                served.set("books/a", ["x": .integer(1)]), served.set("books/a/notes/n1", ["x": .integer(1)]),
                served.set("books/b/notes/n2/lines/l1", ["x": .integer(1)]), served.set("books/c", ["x": .integer(1)]),
                served.set("booksB/z", ["x": .integer(1)]), served.set("shelves/s", ["x": .integer(1)]),
            ])
            var every = Google_Firestore_V1_StructuredQuery.collection("", allDescendants: true).ordered("__name__")
            let leastID = "__id-9223372036854775808__"
            every.startAt = Self.cursor([.reference(served.name("books/\(leastID)"))], before: true)
            every.endAt = Self.cursor([.reference(served.name("books\u{0}/\(leastID)"))], before: false)
            var request = Google_Firestore_V1_RunQueryRequest()
            request.parent = ServedStore.database + "/documents"
            request.structuredQuery = every
            let paths = try await served.client.runQuery(request) { response in
                var paths: [String] = []
                for try await message in response.messages where message.hasDocument {
                    paths.append(String(message.document.name.dropFirst(ServedStore.database.count + "/documents/".count)))
                }
                return paths
            }
            XCTAssertEqual(paths, ["books/a", "books/a/notes/n1", "books/b/notes/n2/lines/l1", "books/c"],
                           "every existing document under books, in name order, not booksB nor shelves: \(served.backend)")
            every.startAt = Self.cursor([.reference(served.name("books/a/notes/n1"))], before: false)
            every.limit.value = 1
            assertSame(try await served.run(every), ["l1"], "a page after a document: \(served.backend)")
            var filtered = Google_Firestore_V1_StructuredQuery.collection("", allDescendants: true)
            filtered.where = .field("x", .equal, .integer(1))
            let refused = await status { try await served.run(filtered) }
            XCTAssertEqual(refused?.0, .unimplemented, "a filter over every collection is not done, and said so: \(served.backend)")
            let notGroup = await status { try await served.run(.collection("")) }
            XCTAssertEqual(notGroup?.0, .invalidArgument, "\(served.backend)")

            // Two ids Swift's String takes for one ("café" composed and decomposed) are two documents.
            try await served.commit([served.set("menus/caf\u{E9}", ["x": .integer(1)]), served.set("menus/cafe\u{301}", ["x": .integer(2)])])
            var menus = Google_Firestore_V1_StructuredQuery.collection("", allDescendants: true).ordered("__name__")
            menus.startAt = Self.cursor([.reference(served.name("menus/\(leastID)"))], before: true)
            menus.endAt = Self.cursor([.reference(served.name("menus\u{0}/\(leastID)"))], before: false)
            let ids = try await served.run(menus)
            XCTAssertEqual(ids.map { Array($0.utf8) }, [Array("cafe\u{301}".utf8), Array("caf\u{E9}".utf8)], "both, by their bytes: \(served.backend)")
        }
    }

    func testArrayTransformsMatchNumbersByValueAsFirestoresServer() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("lists/a", ["items": .array([.integer(1), .string("x"), .double(2.5), .map(["n": .integer(3)])])])])
            var write = Google_Firestore_V1_Write()
            write.transform.document = served.name("lists/a")
            var union = Google_Firestore_V1_DocumentTransform.FieldTransform()
            union.fieldPath = "items"
            union.appendMissingElements.values = [.double(1.0), .integer(2), .map(["n": .double(3.0)])]
            write.transform.fieldTransforms = [union]
            try await served.commit([write])
            assertSame(try await served.get("lists/a").fields["items"], .array([.integer(1), .string("x"), .double(2.5), .map(["n": .integer(3)]), .integer(2)]),
                       "1.0 is 1 and {n: 3.0} is {n: 3}: only 2 is added: \(served.backend)")
            var remove = Google_Firestore_V1_DocumentTransform.FieldTransform()
            remove.fieldPath = "items"
            remove.removeAllFromArray.values = [.double(1.0), .integer(2), .double(2.5)]
            write.transform.fieldTransforms = [remove]
            try await served.commit([write])
            assertSame(try await served.get("lists/a").fields["items"], .array([.string("x"), .map(["n": .integer(3)])]), "\(served.backend)")
        }
    }

    func testStringsHoldingNulAreKeptFilteredAndOrderedAsWritten() async throws {
        try await ServedStore.eachBackend { served in
            let texts = ["nul": "a\u{0}b", "one": "a\u{1}", "plain": "a", "escaped": #"a\u0000"#, "both": "\u{1}\u{0}\u{1}\u{2}"]
            try await served.commit(texts.map { id, text in served.set("texts/\(id)", ["t": .string(text), "keys": .map([text: .integer(1)])]) })
            for (id, text) in texts {
                let fields = try await served.get("texts/\(id)").fields
                XCTAssertEqual(fields["t"], .string(text), "\(id) on \(served.backend)")
                XCTAssertEqual(fields["keys"], .map([text: .integer(1)]), "a field name: \(id) on \(served.backend)")
            }
            let texts_ = Google_Firestore_V1_StructuredQuery.collection("texts")
            assertSame(try await served.run(texts_.ordered("t")), ["both", "plain", "nul", "one", "escaped"], "by code point: \(served.backend)")
            assertSame(try await served.run(texts_.filtered("t", .equal, .string("a\u{0}b"))), ["nul"], "\(served.backend)")
            assertSame(try await served.run(texts_.filtered("t", .greaterThan, .string("a\u{0}"))), ["nul", "one", "escaped"], "ordered by the filtered field: \(served.backend)")
            var after = texts_.ordered("t")
            after.startAt = Self.cursor([.string("a\u{0}b")], before: false)
            assertSame(try await served.run(after), ["one", "escaped"], "a cursor on such a string: \(served.backend)")
        }
    }

    /// The bulk writer's requests: when every write can be applied, they are, with a result
    /// and an OK status each, transform results included.
    func testABatchWriteOfGoodWritesAnswersEachWithItsResultAndTransforms() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("counters/c", ["n": .integer(1)])])
            var increment = Google_Firestore_V1_Write()
            increment.transform.document = served.name("counters/c")
            var field = Google_Firestore_V1_DocumentTransform.FieldTransform()
            field.fieldPath = "n"
            field.increment = .integer(2)
            increment.transform.fieldTransforms = [field]
            var request = Google_Firestore_V1_BatchWriteRequest()
            request.database = ServedStore.database
            request.writes = (0..<30).map { served.set("bulk/d\($0)", ["i": .integer(Int64($0))]) } + [increment]
            let response = try await served.client.batchWrite(request)
            XCTAssertEqual(response.status.map(\.code), Array(repeating: 0, count: 31), "\(served.backend)")
            XCTAssertEqual(response.writeResults.count, 31)
            XCTAssertTrue(response.writeResults.allSatisfy(\.hasUpdateTime), "\(served.backend)")
            XCTAssertEqual(response.writeResults.last?.transformResults, [.integer(3)], "\(served.backend)")
            assertSame(try await served.get("bulk/d29").fields["i"], .integer(29), "\(served.backend)")
        }
    }

    /// After `recursive_delete`: a collection whose documents are all gone is listed nowhere,
    /// though a folder keeps its (empty) folders.
    func testACollectionWhoseDocumentsAreAllDeletedIsListedNowhere() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("shelves/s/books/b/notes/n", ["x": .integer(1)]), served.set("kept/k", [:])])
            var delete = Google_Firestore_V1_Write()
            delete.delete = served.name("shelves/s/books/b/notes/n")
            try await served.commit([delete])
            var collections = Google_Firestore_V1_ListCollectionIdsRequest()
            collections.parent = ServedStore.database + "/documents"
            assertSame(try await served.client.listCollectionIds(collections).collectionIds, ["kept"], "\(served.backend)")
            var documents = Google_Firestore_V1_ListDocumentsRequest()
            documents.parent = ServedStore.database + "/documents"
            documents.collectionID = "shelves"
            documents.showMissing = true
            assertSame(try await served.client.listDocuments(documents).documents.map(\.name), [], "\(served.backend)")
            try await served.commit([served.set("shelves/s/books/b/notes/again", [:])])
            assertSame(try await served.client.listDocuments(documents).documents.map(\.name), [served.name("shelves/s")], "written again: \(served.backend)")
        }
    }
}

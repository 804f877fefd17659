import FirestoreProtocol
import GRPCCore
import SwiftProtobuf
import XCTest

/// Commit, its writes and preconditions, and the single-document methods, as a client sends them.
final class ServedWritesTests: XCTestCase {
    func testEveryValueTypeComesBackAsItWasWrittenIntegersApartFromDoubles() async throws {
        try await ServedStore.eachBackend { served in
            var timestamp = Google_Firestore_V1_Value()
            timestamp.timestampValue = Google_Protobuf_Timestamp(seconds: 1_700_000_000, nanos: 123_456_000)
            var bytes = Google_Firestore_V1_Value()
            bytes.bytesValue = Data([0, 1, 255])
            var point = Google_Firestore_V1_Value()
            point.geoPointValue.latitude = 48.85
            point.geoPointValue.longitude = 2.35
            let fields: [String: Google_Firestore_V1_Value] = [
                "one": .integer(1), "oneDouble": .double(1.0), "nan": .double(.nan), "text": .string("é"), "flag": .boolean(true),
                "nothing": .null, "when": timestamp, "bytes": bytes, "where": point, "ref": .reference(served.name("books/emma")),
                "list": .array([.integer(1), .string("two")]), "map": .map(["deep": .map(["x": .integer(-3)])]),
            ]
            try await served.commit([served.set("books/dune", fields)])
            let read = try await served.get("books/dune").fields
            XCTAssertEqual(read["one"]?.integerValue, 1, "\(served.backend)")
            XCTAssertEqual(read["oneDouble"]?.valueType, .doubleValue(1.0), "an integer never becomes a double, nor a double an integer")
            XCTAssertTrue(read["nan"]?.doubleValue.isNaN ?? false)
            XCTAssertEqual(read["when"], timestamp)
            XCTAssertEqual(read["bytes"], bytes)
            XCTAssertEqual(read["where"], point)
            XCTAssertEqual(read["ref"]?.referenceValue, served.name("books/emma"))
            XCTAssertEqual(read["list"], fields["list"])
            XCTAssertEqual(read["map"], fields["map"])
            XCTAssertEqual(read["nothing"], .null)
            XCTAssertEqual(read.count, fields.count)
        }
    }

    func testAMaskedUpdateChangesOnlyTheMaskAndDeletesAMaskedPathTheDocumentLacks() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["title": .string("Dune"), "pages": .integer(412), "cover": .map(["small": .string("s"), "large": .string("l")])])])
            var write = served.set("books/dune", ["cover": .map(["small": .string("S")])])
            write.updateMask.fieldPaths = ["cover.small", "pages"]
            try await served.commit([write])
            let read = try await served.get("books/dune").fields
            XCTAssertEqual(read["title"], .string("Dune"), "outside the mask: kept")
            XCTAssertNil(read["pages"], "in the mask, not in the document: deleted")
            XCTAssertEqual(read["cover"], .map(["small": .string("S"), "large": .string("l")]))
        }
    }

    func testTransformsApplyInOrderAndAnswerWithTheValuesTheyLeft() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("counters/a", ["n": .integer(5), "tags": .array([.string("x")]), "low": .double(2.5)])])
            var write = Google_Firestore_V1_Write()
            write.transform.document = served.name("counters/a")
            var increment = Google_Firestore_V1_DocumentTransform.FieldTransform()
            increment.fieldPath = "n"
            increment.increment = .integer(2)
            var union = Google_Firestore_V1_DocumentTransform.FieldTransform()
            union.fieldPath = "tags"
            union.appendMissingElements.values = [.string("x"), .string("y")]
            var minimum = Google_Firestore_V1_DocumentTransform.FieldTransform()
            minimum.fieldPath = "low"
            minimum.minimum = .integer(1)
            var time = Google_Firestore_V1_DocumentTransform.FieldTransform()
            time.fieldPath = "`at time`"
            time.setToServerValue = .requestTime
            write.transform.fieldTransforms = [increment, union, minimum, time]
            let response = try await served.commit([write])
            let results = try XCTUnwrap(response.writeResults.first).transformResults
            XCTAssertEqual(results.count, 4)
            XCTAssertEqual(results[0], .integer(7))
            XCTAssertEqual(results[1], .null, "an array transform answers null, as Google's emulator does")
            XCTAssertEqual(results[2], .integer(1))
            XCTAssertNotNil({ if case .timestampValue? = results[3].valueType { return true } else { return nil } }())
            let read = try await served.get("counters/a").fields
            XCTAssertEqual(read["n"], .integer(7))
            XCTAssertEqual(read["tags"], .array([.string("x"), .string("y")]))
            var remove = Google_Firestore_V1_DocumentTransform.FieldTransform()
            remove.fieldPath = "tags"
            remove.removeAllFromArray.values = [.string("x")]
            write.transform.fieldTransforms = [remove]
            let removed = try await served.commit([write])
            XCTAssertEqual(removed.writeResults.first?.transformResults, [.null])
            let tags = try await served.get("counters/a").fields["tags"]
            XCTAssertEqual(tags, .array([.string("y")]))
            XCTAssertEqual(read["at time"], results[3], "the server's time is the one it answered")
        }
    }

    /// A precondition an earlier write of the same request settles as failed is refused as
    /// Google's emulator refuses it, before anything is written; one it leaves open is judged
    /// on what is stored then.
    func testAPreconditionTheRequestItselfSettlesIsRefused() async throws {
        try await ServedStore.with(.folder) { served in
            try await served.commit([served.set("books/dune", ["title": .string("Dune")])])
            var delete = Google_Firestore_V1_Write()
            delete.delete = served.name("books/dune")
            var update = served.set("books/dune", ["title": .string("Again")])
            update.currentDocument.exists = true
            var create = served.set("books/dune", ["title": .string("New")])
            create.currentDocument.exists = false
            var deleteIfMissing = delete
            deleteIfMissing.currentDocument.exists = false
            let stored = try await served.get("books/dune").updateTime
            var updatedAtDay = served.set("books/dune", ["title": .string("Day")])
            updatedAtDay.currentDocument.updateTime.seconds = 86400
            var updatedAtStored = updatedAtDay
            updatedAtStored.currentDocument.updateTime = stored
            let refused: [([Google_Firestore_V1_Write], String)] = [
                ([delete, update], "Cannot delete then update an entity in the same request."),
                ([served.set("books/dune", [:]), delete, update], "Cannot delete then update an entity in the same request."),
                ([served.set("books/dune", [:]), create], "Cannot upsert then insert an entity in the same request."),
                ([update, deleteIfMissing], "Cannot update then delete an entity in the same request."),
                ([served.set("books/dune", [:]), updatedAtDay], "Cannot collapse mutations with different version preconditions (null and VersionPrecondition{exactBaseVersion=86400000000, maxBaseVersion=null})"),
                ([updatedAtDay, served.set("books/dune", [:]), updatedAtStored],
                 "Cannot collapse mutations with different version preconditions (VersionPrecondition{exactBaseVersion=86400000000, maxBaseVersion=null} and VersionPrecondition{exactBaseVersion=\(stored.seconds * 1_000_000 + Int64(stored.nanos / 1000)), maxBaseVersion=null})"),
            ]
            for (writes, message) in refused {
                let answer = await status { try await served.commit(writes) }
                XCTAssertEqual(answer?.0, .invalidArgument)
                XCTAssertEqual(answer?.1, message)
            }
            let kept = try await served.get("books/dune").fields["title"]
            XCTAssertEqual(kept, .string("Dune"), "nothing written")
            try await served.commit([updatedAtStored, served.set("books/dune", ["title": .string("Kept")]), updatedAtStored])
            try await served.commit([delete, create, update])
            let written = try await served.get("books/dune").fields["title"]
            XCTAssertEqual(written, .string("Again"))
        }
    }

    func testPreconditionsFailWithFirestoresCodesAndMessagesAndWriteNothing() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["title": .string("Dune")])])
            var create = served.set("books/dune", ["title": .string("Other")])
            create.currentDocument.exists = false
            let exists = await status { try await served.commit([served.set("books/emma", [:]), create]) }
            XCTAssertEqual(exists?.0, .alreadyExists)
            XCTAssertEqual(exists?.1, "Document already exists: \(served.name("books/dune"))")
            var update = served.set("books/missing", ["x": .integer(1)])
            update.updateMask.fieldPaths = ["x"]
            update.currentDocument.exists = true
            let missing = await status { try await served.commit([update]) }
            XCTAssertEqual(missing?.0, .notFound)
            XCTAssertEqual(missing?.1, "No document to update: \(served.name("books/missing"))")
            let emma = await status { try await served.get("books/emma") }
            XCTAssertEqual(emma?.0, .notFound, "a commit that fails writes none of its writes")
            let stored = try await served.get("books/dune")
            XCTAssertEqual(stored.fields["title"], .string("Dune"))
        }
    }

    func testCreateUpdateAndDeleteDocumentAnswerAsFirestore() async throws {
        try await ServedStore.eachBackend { served in
            var create = Google_Firestore_V1_CreateDocumentRequest()
            create.parent = ServedStore.database + "/documents"
            create.collectionID = "books"
            create.document.fields = ["title": .string("Dune")]
            let made = try await served.client.createDocument(create)
            XCTAssertTrue(made.name.hasPrefix(served.name("books/")))
            XCTAssertEqual(made.name.split(separator: "/").last?.count, 20, "an id made by the server is 20 characters, as Firestore's")
            create.documentID = "dune"
            _ = try await served.client.createDocument(create)
            let again = await status { try await served.client.createDocument(create) }
            XCTAssertEqual(again?.0, .alreadyExists)

            var update = Google_Firestore_V1_UpdateDocumentRequest()
            update.document = served.document("books/dune", ["pages": .integer(1)])
            update.updateMask.fieldPaths = ["pages"]
            update.mask.fieldPaths = ["pages"]
            let updated = try await served.client.updateDocument(update)
            XCTAssertEqual(updated.fields, ["pages": .integer(1)], "the response holds only the fields of its mask")
            let stored = try await served.get("books/dune")
            XCTAssertEqual(stored.fields["title"], .string("Dune"))

            var delete = Google_Firestore_V1_DeleteDocumentRequest()
            delete.name = served.name("books/dune")
            delete.currentDocument.exists = true
            _ = try await served.client.deleteDocument(delete)
            let gone = await status { try await served.client.deleteDocument(delete) }
            XCTAssertEqual(gone?.0, .notFound)
        }
    }

    func testBatchWriteAnswersEachWriteWithItsOwnStatusAndAppliesTheOthers() async throws {
        try await ServedStore.eachBackend { served in
            var failing = served.set("books/missing", ["x": .integer(1)])
            failing.currentDocument.exists = true
            var request = Google_Firestore_V1_BatchWriteRequest()
            request.database = ServedStore.database
            request.writes = [served.set("books/a", ["n": .integer(1)]), failing, served.set("books/b", ["n": .integer(2)])]
            let response = try await served.client.batchWrite(request)
            XCTAssertEqual(response.status.map(\.code), [0, Int32(RPCError.Code.notFound.rawValue), 0])
            XCTAssertTrue(response.writeResults[0].hasUpdateTime)
            let stored = try await served.get("books/b")
            XCTAssertEqual(stored.fields["n"], .integer(2))
        }
    }

    func testTheWriteStreamShakesHandsThenAnswersEachRequestWithResultsAndANewToken() async throws {
        try await ServedStore.with(.folder) { served in
            let handshake = { var request = Google_Firestore_V1_WriteRequest(); request.database = ServedStore.database; return request }()
            let write = { var request = Google_Firestore_V1_WriteRequest(); request.writes = [served.set("books/dune", ["title": .string("Dune")])]; return request }()
            let responses = try await served.client.write(requestProducer: { writer in
                try await writer.write(handshake)
                try await writer.write(write)
            }, onResponse: { response in
                var all: [Google_Firestore_V1_WriteResponse] = []
                for try await message in response.messages { all.append(message) }
                return all
            })
            XCTAssertEqual(responses.count, 2)
            XCTAssertFalse(responses[0].streamID.isEmpty)
            XCTAssertTrue(responses[0].writeResults.isEmpty)
            XCTAssertEqual(responses[1].writeResults.count, 1)
            XCTAssertNotEqual(responses[0].streamToken, responses[1].streamToken)
            let stored = try await served.get("books/dune")
            XCTAssertEqual(stored.fields["title"], .string("Dune"))
        }
    }
}

import DocumentStore
import Testing

/// `import FirebaseFirestore` brings Foundation with it, so Firebase's docs and quickstarts name
/// `URL`, `Date`, `Data`, `UUID`, `NSNull`, `NSError` and `InputStream` with no import of their
/// own (a file that loads a bundle may import nothing else). This file imports DocumentStore and
/// Swift Testing only (XCTest would bring Foundation itself), so it compiles only while
/// `import DocumentStore` brings Foundation too.
@Suite struct FoundationThroughImportTests {
    struct Photo: Codable, Equatable {
        var id: String = UUID().uuidString
        var link: URL
        var taken: Date
        var bytes: Data
    }

    @Test func foundationsValuesGoInAndComeBackOut() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let taken = Date(timeIntervalSince1970: 1_700_000_000)
        let plain = store.db.document("kinds/plain")
        try await plain.setData(["when": Timestamp(date: taken), "nothing": NSNull(), "bytes": Data([1, 2])])
        let data = try #require(try await plain.getDocument().data())
        #expect((data["when"] as? Timestamp)?.dateValue() == taken)
        #expect(data["nothing"] is NSNull)
        #expect(data["bytes"] as? Data == Data([1, 2]))

        let photo = Photo(link: URL(string: "https://example.com/food_3.png")!, taken: taken, bytes: Data([3]))
        let mapped = store.db.document("photos/first")
        try mapped.setData(from: photo)
        #expect(try await mapped.getDocument(as: Photo.self) == photo)
    }

    @Test func anNSErrorTheBlockSetsIsTheTransactionsError() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let town = store.db.document("towns/nowhere")
        do {
            try await store.db.runTransaction { transaction, errorPointer -> Any? in
                let snapshot: DocumentSnapshot
                do {
                    snapshot = try transaction.getDocument(town)
                } catch let error as NSError {
                    errorPointer?.pointee = error
                    return nil
                }
                guard snapshot.data()?["population"] is Int else {
                    errorPointer?.pointee = NSError(domain: "AppErrorDomain", code: -1,
                                                    userInfo: [NSLocalizedDescriptionKey: "no population in \(snapshot.documentID)"])
                    return nil
                }
                return nil
            }
            Issue.record("the transaction succeeded")
        } catch let error as NSError {
            #expect(error.domain == "AppErrorDomain")
            #expect(error.code == -1)
            #expect(error.localizedDescription == "no population in nowhere")
        }
    }

    @Test func aBundleLoadsFromAnInputStreamOnAFileURL() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        func framed(_ json: String) -> String { "\(json.utf8.count)\(json)" }
        let name = "projects/p/databases/(default)/documents/stories/first"
        let body = framed(#"{"documentMetadata":{"name":"\#(name)","readTime":"2100-01-01T00:00:00Z","exists":true}}"#)
            + framed(#"{"document":{"name":"\#(name)","fields":{"title":{"stringValue":"Lede"}},"createTime":"2020-01-01T00:00:00Z","updateTime":"2020-01-02T00:00:00Z"}}"#)
        let metadata = #"{"metadata":{"id":"stories","createTime":{"seconds":"1","nanos":0},"version":1,"totalDocuments":1,"totalBytes":\#(body.utf8.count)}}"#
        let file = store.scratch.appendingPathComponent("stories.bundle")
        try Data((framed(metadata) + body).utf8).write(to: file)

        let stream = try #require(InputStream(url: file))
        let progress = try await store.db.loadBundle(stream)
        #expect(progress.state == .success)
        #expect(progress.bytesLoaded == progress.totalBytes)
        #expect(try await store.db.document("stories/first").getDocument().get("title") as? String == "Lede")
    }
}

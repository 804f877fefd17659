@testable import DocumentStore
import Foundation
import XCTest

/// The store as it was at a past time (`Firestore.asOf`, what `shelf serve` answers a
/// `read_time` with), on a folder and on PostgreSQL: documents replaced or deleted since read
/// as they were, those created since are missing, in gets, queries, aggregations and listings.
final class PastVersionsTests: StoreTestCase {
    private func updateTime(_ path: String) throws -> Timestamp {
        try XCTUnwrap(try db.documentTimes([path]).first ?? nil, "\(path) has times").updated
    }

    func testTheStoreAsItWasReadsTheDocumentsOfThen() async throws {
        try db.keepPastVersions()
        try db.batch().setData(["n": 1], forDocument: db.document("books/a")).setData(["n": 2], forDocument: db.document("books/b")).commitNow()
        let then = try updateTime("books/a")
        try db.batch().setData(["n": 5], forDocument: db.document("books/a")).deleteDocument(db.document("books/b"))
            .setData(["n": 3], forDocument: db.document("books/c")).setData(["n": 4], forDocument: db.document("films/x")).commitNow()

        let past = db.asOf(then)
        let a = try await past.document("books/a").getDocument()
        XCTAssertEqual(a.data()?["n"] as? Int64, 1)
        XCTAssertEqual(try past.documentTimes(["books/a"]).first??.updated, then)
        let b = try await past.document("books/b").getDocument()
        XCTAssertEqual(b.data()?["n"] as? Int64, 2, "deleted since: as it was")
        let c = try await past.document("books/c").getDocument()
        XCTAssertFalse(c.exists, "created since")

        let books = try await past.collection("books").order(by: "n").getDocuments()
        XCTAssertEqual(books.documents.map(\.documentID), ["a", "b"])
        let count = try await past.collection("books").count.getAggregation(source: .server)
        XCTAssertEqual(count.count.intValue, 2)
        XCTAssertEqual(try past.collection("books").listDocuments().map(\.documentID), ["a", "b"])
        XCTAssertEqual(try past.listCollections().map(\.collectionID), ["books"], "films came later")

        let now = try await db.collection("books").order(by: "n").getDocuments()
        XCTAssertEqual(now.documents.map(\.documentID), ["c", "a"], "the store itself is as it is")
    }

    func testAWriteThatChangesNothingKeepsNoVersion() async throws {
        try db.keepPastVersions()
        let a = db.document("books/a")
        try await a.setData(["n": 1])
        let then = try updateTime("books/a")
        func versions() throws -> [PastVersion] {
            try XCTUnwrap(try (db.backend as? VersionedStorage)?.versions(in: .documents([a.resourcePath]), replacedAfter: then, store: db))
        }
        try db.batch().setData(["n": 1], forDocument: a).setData(["n": 1], forDocument: db.document("books/b")).commitNow()
        try await a.updateData(["n": 1])
        XCTAssertEqual(try versions().count, 0, "the document stayed as it was")
        try await a.setData(["n": 2])
        XCTAssertEqual(try versions().map(\.times.updated), [then], "the one it was before it changed")
    }

    #if !SHELF_POSTGRES_TESTS && !SHELF_REMOTE_TESTS
    private var versionsFolder: URL { store.root.appendingPathComponent(".shelf/versions", isDirectory: true) }

    func testAFolderKeepsVersionsOnlyOnceAskedAndAcrossReopening() async throws {
        try await db.document("books/a").setData(["n": 1])
        try await db.document("books/a").setData(["n": 2])
        XCTAssertFalse(FileManager.default.fileExists(atPath: versionsFolder.path), "no versions unless asked (the app, `generate`)")

        try db.keepPastVersions()
        let then = try updateTime("books/a")
        try await db.document("books/a").setData(["n": 3])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: versionsFolder.path).count, 1, "one file for the commit")

        let reopened = try store.openAnother()
        try await reopened.document("books/a").setData(["n": 4])  // another process keeps them too
        let past = try await reopened.asOf(then).document("books/a").getDocument()
        XCTAssertEqual(past.data()?["n"] as? Int64, 2)
    }

    func testACommitRemovesVersionFilesPastTheWindow() async throws {
        try db.keepPastVersions()
        let old = versionsFolder.appendingPathComponent("000000000001.000000000-old.json")
        try Data("{}".utf8).write(to: old)
        try await db.document("books/a").setData(["n": 1])
        try await db.document("books/a").setData(["n": 2])
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: versionsFolder.path).count, 1, "the new one stays")
    }
    #endif
}

import DocumentStore
import FirestoreProtocol
import FirestoreServer
import Foundation
import GRPCCore
import XCTest

/// Projects are kept apart as Google's emulator keeps them: test suites that take a project
/// id per run must never see each other's documents.
final class ServedProjectsTests: XCTestCase {
    func testEachProjectIsAStoreOfItsOwnWhereTheReadmeSays() async throws {
        try await ServedStore.eachBackend { served in
            try await served.setWhere(in: ServedStore.database, where: "test")
            try await served.setWhere(in: "projects/other/databases/(default)", where: "other")
            try await served.setWhere(in: "projects/other/databases/other-db", where: "other's named")
            assertSame(await served.whereField(in: ServedStore.database), "test")
            assertSame(await served.whereField(in: "projects/other/databases/(default)"), "other")
            assertSame(await served.whereField(in: "projects/other/databases/other-db"), "other's named")
            assertSame(await served.whereField(in: "projects/test/databases/other-db"), nil, "the named database of another project")
            assertSame(try await served.collectionIDs(in: "projects/third/databases/(default)"), [], "a project never written")

            switch served.backend {
            case .folder:
                for file in ["books/dune.json", "__projects__/other/books/dune.json", "__projects__/other/__databases__/other-db/books/dune.json"] {
                    XCTAssertTrue(FileManager.default.fileExists(atPath: served.location.appendingPathComponent(file).path), file)
                }
            case .postgres:
                let base = served.location.lastPathComponent
                let databases = try PostgresCluster.shared().psql("SELECT datname FROM pg_database WHERE datname LIKE '\(base)%' ORDER BY datname")
                for name in ["\(base)~other", "\(base)~other__other-db", "\(base)~third"] {
                    XCTAssertTrue(databases.split(separator: "\n").contains(Substring(name)), "\(name) in \(databases)")
                    try? PostgresCluster.shared().dropDatabase("\"\(name)\"")
                }
            }
        }
    }

    /// The store a server is started on is one project's: the first one served, recorded with
    /// the data, so a later server on it serves that project's documents from it, and a start
    /// for another project is refused naming the owner.
    func testTheFirstProjectServedOwnsTheStoreAndALaterStartForAnotherIsRefused() async throws {
        try await ServedStore.eachBackend { served in
            try await served.setWhere(in: ServedStore.database, where: "test")
            XCTAssertNoThrow(try ShelfServer.claim(served.location, for: "test"))
            XCTAssertThrowsError(try ShelfServer.claim(served.location, for: "other")) { error in
                XCTAssertTrue("\(error)".contains("project test's data"), "\(error)")
            }
        }
    }

    func testAProjectIDOutsideTheEmulatorsRuleIsRefusedNamingIt() async throws {
        try await ServedStore.with(.folder) { served in
            let answer = await status { try await served.setWhere(in: "projects/My_Project/databases/(default)", where: "x") }
            assertSame(answer?.0, .invalidArgument)
            XCTAssertTrue(answer?.1.contains("project \"My_Project\"") ?? false, answer?.1 ?? "")
            assertSame(try await served.collectionIDs(in: ServedStore.database), [], "nothing written")
        }
    }
}

extension ServedStore {
    /// Sets `books/dune` in `database` (`projects/p/databases/d`) to `where`.
    func setWhere(in database: String, where value: String) async throws {
        var write = set("books/dune", ["where": .string(value)])
        write.update.name = database + "/documents/books/dune"
        var request = Google_Firestore_V1_CommitRequest()
        request.database = database
        request.writes = [write]
        _ = try await client.commit(request)
    }

    func whereField(in database: String) async -> String? {
        var get = Google_Firestore_V1_GetDocumentRequest()
        get.name = database + "/documents/books/dune"
        return try? await client.getDocument(get).fields["where"]?.stringValue
    }

    func collectionIDs(in database: String) async throws -> [String] {
        var request = Google_Firestore_V1_ListCollectionIdsRequest()
        request.parent = database + "/documents"
        return try await client.listCollectionIds(request).collectionIds
    }
}

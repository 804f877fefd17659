@testable import DocumentStore
import Foundation
import XCTest

/// `Firestore(url:)`: a file URL opens a folder; a server URL needs the module that brings it.
final class OpeningByURLTests: XCTestCase {
    func testAFileURLOpensAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OpeningByURL-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try Firestore(url: folder)
        try db.document("books/dune").write(["title": "Dune"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path + "/books/dune.json"))
        XCTAssertEqual(db.directory, folder)
    }

    func testAFolderStoreNamesItsFilesAndItsPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OpeningByURL-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try Firestore(url: folder)
        XCTAssertEqual(db.placeName, folder.path)
        XCTAssertEqual(db.fileURL(for: "books/dune")?.path, folder.path + "/books/dune.json")
        XCTAssertEqual(db.fileURL(for: "books/dune/reviews/r1")?.path, folder.path + "/books/dune/reviews/r1.json")
        XCTAssertEqual(db.fileURL(for: "books")?.path, folder.path + "/books", "a collection is its folder")
        XCTAssertEqual(db.fileURL(for: "books/dune/reviews")?.hasDirectoryPath, true)
        XCTAssertEqual(db.fileURL(for: "books/dune")?.hasDirectoryPath, false)
        XCTAssertNil(db.fileURL(for: "books//dune"), "no file for a path that is not valid")
        XCTAssertNil(db.fileURL(for: ""))
    }

    func testAPostgreSQLURLWithoutItsModuleSaysWhatToImport() {
        let error = ServerSchemes.unknownScheme(URL(string: "postgresql://shelf:secret@db.example:5432/shelf")!)
        XCTAssertEqual(error.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error.description, "postgresql:// URLs need the DocumentStorePostgres module: add its product to your target's dependencies")
    }

    func testAFirestoreURLWithoutItsModuleSaysWhatToImport() {
        // What opening says when no module took the scheme (the tests of one process may have
        // registered it already, so the message is asked of the registry itself).
        let error = ServerSchemes.unknownScheme(URL(string: "firestore://127.0.0.1:8080/demo")!)
        XCTAssertEqual(error.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error.description, "firestore:// URLs need the DocumentStoreRemote module: add its product to your target's dependencies")
    }

    func testAnUnknownSchemeIsRefusedWithoutShowingThePassword() {
        let error = thrownError { _ = try Firestore(url: URL(string: "mysql://shelf:secret@db.example/shelf")!) } as? FirestoreErrorCode
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description, "cannot open a store at mysql://db.example…: expected a file URL (a folder), a postgresql://user:password@host:port/database URL or a firestore://host:port/project[/database] URL")
    }
}

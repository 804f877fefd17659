@testable import DocumentStore
import XCTest

/// Names as Firestore's requests and bundles carry them, and what is said of a wrong one.
final class ResourceNameTests: XCTestCase {
    func testADocumentsNameGivesItsDatabaseAndPath() throws {
        let name = try ResourceName(parsing: "projects/p/databases/(default)/documents/books/dune/reviews/r1")
        XCTAssertEqual(name, ResourceName(project: "p", database: "(default)", path: ["books", "dune", "reviews", "r1"]))
        XCTAssertEqual(name.databaseName, "projects/p/databases/(default)")
        XCTAssertEqual(name.description, "projects/p/databases/(default)/documents/books/dune/reviews/r1")
    }

    func testADatabaseAndItsDocumentsRootHaveAnEmptyPath() throws {
        XCTAssertEqual(try ResourceName(parsing: "projects/p/databases/d").path, [])
        XCTAssertEqual(try ResourceName(parsing: "projects/p/databases/d/documents").path, [])
    }

    func testATrailingSlashAfterDocumentsIsTheRootAndAnyOtherEmptySegmentIsRefused() throws {
        XCTAssertEqual(try ResourceName(parsing: "projects/p/databases/d/documents/").path, [])
        XCTAssertThrowsError(try ResourceName(parsing: "projects/p/databases/d/documents/books/"))
        XCTAssertThrowsError(try ResourceName(parsing: "projects/p/databases/d/documents//books"))
    }

    func testSegmentsAreSplitOnTheByteSlashEvenBeforeACombiningMark() throws {
        XCTAssertEqual(try ResourceName(parsing: "projects/p/databases/d/documents/books/\u{301}x").path, ["books", "\u{301}x"])
    }

    func testANameIsADocumentsWhenItsPathHasAnEvenNumberOfSegments() throws {
        XCTAssertEqual(try ["", "/books", "/books/dune", "/books/dune/reviews"].map { try ResourceName(parsing: "projects/p/databases/d/documents" + $0).namesDocument },
                       [false, false, true, false])
        XCTAssertEqual(ResourceName(project: "p", database: "d", path: ["books", "dune"]).description, "projects/p/databases/d/documents/books/dune")
    }

    func testAWrongNameSaysWhatIsExpected() {
        let cases = [
            ("books/dune", "\"books/dune\" is not a name of the form projects/{project_id}/databases/{database_id}[/documents/{path}]"),
            ("projects//databases/d", "\"projects//databases/d\" is not a name of the form projects/{project_id}/databases/{database_id}[/documents/{path}]"),
            ("projects/p/databases/d/docs/x", "\"projects/p/databases/d/docs/x\": after the database comes /documents"),
            ("projects/p/databases/d/documents/books//dune", "\"projects/p/databases/d/documents/books//dune\" has an empty segment at 2 of its path"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try ResourceName(parsing: text), text) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
        XCTAssertThrowsError(try ResourceName(parsing: "projects/p/databases/d", underDocuments: true)) { error in
            XCTAssertEqual("\(error)", "\"projects/p/databases/d\" is not under projects/p/databases/d/documents")
        }
    }
}

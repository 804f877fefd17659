@testable import DocumentStore
import Foundation
import XCTest

/// An error's parts come apart from its text: the document, the field, the reason and the
/// system's errno, so a program (the app's rows) shows them without parsing the message.
final class StructuredErrorTests: StoreTestCase {
    func testAnUnreadableDocumentNamesItsPathAndReasonApart() throws {
        try store.writeFile("books/broken.json", "{ not json")
        let error = try XCTUnwrap(db.document("books/broken").readDocument().readError)
        XCTAssertEqual(error.path, "books/broken")
        let reason = try XCTUnwrap(error.localizedFailureReason)
        XCTAssertTrue(reason.hasPrefix("not valid JSON"), reason)
        XCTAssertTrue(error.localizedDescription.hasSuffix(reason), "the description ends with the reason")
        XCTAssertNil(error.field)
    }

    func testAValueThatCannotBeStoredNamesItsField() throws {
        let error = DocumentStoreError.invalidValue(path: "books/dune", field: "rating", reason: "NaN is not stored here").firestoreError
        XCTAssertEqual(error.path, "books/dune")
        XCTAssertEqual(error.field, "rating")
        XCTAssertEqual(error.localizedFailureReason, "NaN is not stored here")
    }

    /// A folder the store may not write: permission denied, told by errno, not by its words.
    func testASystemCallsErrnoIsTheUnderlyingError() throws {
        let error = DocumentStoreError.io("/data/books", "write", errno: EACCES).firestoreError
        XCTAssertEqual(error.code, FirestoreErrorCode.Code.permissionDenied.rawValue)
        let underlying = try XCTUnwrap(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        XCTAssertEqual(underlying.domain, NSPOSIXErrorDomain)
        XCTAssertEqual(underlying.code, Int(EACCES))
        XCTAssertEqual(DocumentStoreError.io("/data/books", "write", errno: ENOSPC).firestoreError.code, FirestoreErrorCode.Code.unavailable.rawValue)
        XCTAssertEqual(DocumentStoreError.io(path: "/data", operation: "open", reason: String(cString: strerror(EACCES))).firestoreError.code,
                       FirestoreErrorCode.Code.unavailable.rawValue, "words that read like a permission are not one")
    }
}

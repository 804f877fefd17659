@testable import DocumentStore
import XCTest

/// Compares an error the store reported with the message it should carry, written as the
/// internal case that builds it.
func XCTAssertEqual(_ actual: @autoclosure () throws -> FirestoreErrorCode?, _ expected: @autoclosure () throws -> DocumentStoreError?,
                    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(try actual(), try expected()?.firestoreError, message(), file: file, line: line)
}

@testable import DocumentStore
import XCTest

/// Each code's name as Firestore's protocol spells it (google.rpc.Code), one table for the
/// server's log, and for REST's error bodies.
final class StatusNameTests: XCTestCase {
    func testEachCodeIsNamedAsGoogleRPCNamesIt() {
        let names = (0...16).map { FirestoreErrorCode.Code(rawValue: $0)!.statusName }
        XCTAssertEqual(names, ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
                               "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
                               "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"])
    }

    /// Each name is its case's, in capitals with words apart: no table entry is another's.
    func testEachNameIsItsCasesName() {
        for code in (0...16).compactMap(FirestoreErrorCode.Code.init(rawValue:)) {
            let words = "\(code)".replacingOccurrences(of: "([a-z])([A-Z])", with: "$1_$2", options: .regularExpression).uppercased()
            XCTAssertEqual(code.statusName, words)
        }
    }
}

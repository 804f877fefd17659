import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import SwiftProtobuf
import XCTest

/// The one table of Firestore's operators and the one mapping of statuses agree with the
/// protocol's generated messages, both ways.
final class WireVocabularyTests: XCTestCase {
    /// The name proto3's JSON gives the message's `op`: the protocol's own.
    private func opName(_ filter: some SwiftProtobuf.Message) throws -> String {
        let json = try filter.jsonString()
        return String(json.dropFirst(#"{"op":""#.count).dropLast(2))
    }

    func testEveryOperatorHasTheProtocolsNameAndNumber() throws {
        for op in FilterOperator.allCases {
            var filter = Google_Firestore_V1_StructuredQuery.FieldFilter()
            filter.op = try XCTUnwrap(.init(rawValue: op.protocolNumber))
            XCTAssertEqual(try opName(filter), op.protocolName)
            XCTAssertEqual(FilterOperator(protocolName: op.protocolName), op)
            XCTAssertEqual(FilterOperator(protocolNumber: op.protocolNumber), op)
        }
        XCTAssertNil(FilterOperator(protocolNumber: 0))
        XCTAssertNil(FilterOperator(protocolName: "OPERATOR_UNSPECIFIED"))
        for op in UnaryFilterOperator.allCases {
            var filter = Google_Firestore_V1_StructuredQuery.UnaryFilter()
            filter.op = try XCTUnwrap(.init(rawValue: op.rawValue))
            XCTAssertEqual(try opName(filter), op.protocolName)
            XCTAssertEqual(UnaryFilterOperator(protocolName: op.protocolName), op)
        }
    }

    func testAUnaryFilterIsAnEqualityWithNullOrNaNBothWays() {
        for op in UnaryFilterOperator.allCases {
            XCTAssertEqual(UnaryFilterOperator(op.fieldFilter.op, op.fieldFilter.value), op)
        }
        XCTAssertNil(UnaryFilterOperator(.lessThan, .null))
        XCTAssertNil(UnaryFilterOperator(.equal, .double(1)))
    }

    func testEveryFirestoreErrorComesBackFromItsStatusWithItsCodeAndMessage() throws {
        for number in 1...16 {
            let code = try XCTUnwrap(FirestoreErrorCode.Code(rawValue: number))
            let status = try XCTUnwrap(WireError(firestoreError: FirestoreErrorCode(code, userInfo: [NSLocalizedDescriptionKey: "why \(number)"]))).status
            XCTAssertEqual(status.code, Int32(number))
            XCTAssertEqual(status.message, "why \(number)")
            let error = WireError.firestoreError(status)
            XCTAssertEqual(error.code, number)
            XCTAssertEqual(error.description, "why \(number)")
        }
    }

    func testAnotherErrorHasNoStatusOfItsOwnAndAnUnknownNumberIsUnknown() {
        XCTAssertNil(WireError(firestoreError: CocoaError(.fileNoSuchFile)))
        XCTAssertNil(WireError(firestoreError: FirestoreErrorCode(.OK)))
        XCTAssertEqual(WireError.firestoreError(code: 99, message: "?").code, FirestoreErrorCode.Code.unknown.rawValue)
    }
}

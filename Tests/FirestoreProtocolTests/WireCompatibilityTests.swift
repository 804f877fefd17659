import FirestoreProtocol
import Foundation
import SwiftProtobuf
import XCTest

/// Shelf's generated messages read what Firestore's own clients send, byte for byte: these
/// bytes were made by the official Python client (google-cloud-firestore 2.x,
/// `CommitRequest.serialize(...)` and the like); `scripts/check-protocol.py` checks every field
/// number of Protos/ against the same client's descriptors.
final class WireCompatibilityTests: XCTestCase {
    private func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    func testACommitOfAnUpdateWithAMaskATransformAndAPreconditionReadsAsThePythonClientWroteIt() throws {
        let request = try Google_Firestore_V1_CommitRequest(serializedBytes: bytes("0a1e70726f6a656374732f702f6461746162617365732f2864656661756c742912780a550a3370726f6a656374732f702f6461746162617365732f2864656661756c74292f646f63756d656e74732f626f6f6b732f64756e6512100a057469746c6512078a010444756e65120c0a0570616765731203109c031a0e0a057469746c650a057061676573220208013a0b0a0572656164731a0210011a020102"))
        XCTAssertEqual(request.database, "projects/p/databases/(default)")
        XCTAssertEqual(request.transaction, Data([1, 2]))
        let write = try XCTUnwrap(request.writes.first)
        XCTAssertEqual(write.update.name, "projects/p/databases/(default)/documents/books/dune")
        XCTAssertEqual(write.update.fields["title"]?.stringValue, "Dune")
        XCTAssertEqual(write.update.fields["pages"]?.integerValue, 412)
        XCTAssertEqual(write.updateMask.fieldPaths, ["title", "pages"])
        XCTAssertEqual(write.updateTransforms.first?.fieldPath, "reads")
        XCTAssertEqual(write.updateTransforms.first?.increment.integerValue, 1)
        XCTAssertEqual(write.currentDocument.conditionType, .exists(true))
        XCTAssertTrue(request.unknownFields.data.isEmpty && write.unknownFields.data.isEmpty, "every field is known")
        XCTAssertEqual(try Google_Firestore_V1_CommitRequest(serializedBytes: try request.serializedData()), request)
    }

    func testACollectionGroupQueryWithAFilterAnOrderALimitAndANewTransactionReadsAsWritten() throws {
        let request = try Google_Firestore_V1_RunQueryRequest(serializedBytes: bytes("0a2870726f6a656374732f702f6461746162617365732f2864656661756c74292f646f63756d656e7473123012091205626f6f6b7318011a1212100a071205706167657310041a0310ac02220b0a071205706167657310022a02081432021200"))
        XCTAssertEqual(request.parent, "projects/p/databases/(default)/documents")
        let query = request.structuredQuery
        XCTAssertEqual(query.from.map(\.collectionID), ["books"])
        XCTAssertEqual(query.from.first?.allDescendants, true)
        XCTAssertEqual(query.where.fieldFilter.field.fieldPath, "pages")
        XCTAssertEqual(query.where.fieldFilter.op, .greaterThanOrEqual)
        XCTAssertEqual(query.where.fieldFilter.value.integerValue, 300)
        XCTAssertEqual(query.orderBy.first?.direction, .descending)
        XCTAssertEqual(query.limit.value, 20)
        guard case .newTransaction(let options)? = request.consistencySelector, case .readOnly? = options.mode else {
            return XCTFail("a read-only new transaction, found \(String(describing: request.consistencySelector))")
        }
    }

    func testAListenTargetChangeIsWrittenAsThePythonClientWritesIt() throws {
        var change = Google_Firestore_V1_TargetChange()
        change.targetChangeType = .current
        change.targetIds = [1, 2]
        change.resumeToken = Data("rt".utf8)
        change.readTime = Google_Protobuf_Timestamp(seconds: 1_700_000_000, nanos: 123_000)
        var response = Google_Firestore_V1_ListenResponse()
        response.targetChange = change
        XCTAssertEqual(try response.serializedData(), bytes("121608031202010222027274320a0880e2cfaa0610f8c007"))
    }
}

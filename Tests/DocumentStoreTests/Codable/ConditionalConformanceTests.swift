@testable import DocumentStore
import Foundation
import XCTest

/// The property wrappers are Equatable and Hashable when what they hold is, so models that use
/// them can be too.
final class ConditionalConformanceTests: StoreTestCase {
    func testAPlainModel() {
        struct Model: Codable, Hashable { let x: Int }
        let names = [Model(x: 42): "foo"]
        XCTAssertEqual(names[Model(x: 42)], "foo")
    }

    func testDocumentIDOfString() {
        struct Model: Codable, Hashable { @DocumentID var x: String? }
        XCTAssertEqual(Model(x: "42"), Model(x: "42"))
        XCTAssertNotEqual(Model(x: "42"), Model(x: "1"))
        XCTAssertEqual([Model(x: "42"): "foo"][Model(x: "42")], "foo")
    }

    func testDocumentIDOfDocumentReference() {
        struct Model: Codable, Hashable { @DocumentID var x: DocumentReference? }
        let first = db.document("abc/xyz")
        let same = db.document("abc/xyz")
        let other = db.document("abc/def")
        XCTAssertEqual(Model(x: first), Model(x: same))
        XCTAssertNotEqual(Model(x: first), Model(x: other))
        XCTAssertEqual([Model(x: first): "foo"][Model(x: same)], "foo")
    }

    func testExplicitNull() {
        struct Model: Codable, Hashable { @ExplicitNull var x: Int? }
        XCTAssertEqual(Model(x: 42), Model(x: 42))
        XCTAssertNotEqual(Model(x: 42), Model(x: 1))
        XCTAssertEqual([Model(x: 42): "foo"][Model(x: 42)], "foo")
    }

    func testServerTimestampOfTimestamp() {
        struct Model: Codable, Hashable { @ServerTimestamp var x: Timestamp? }
        let first = Timestamp(seconds: 123, nanoseconds: 456)
        let copy = first
        let other = Timestamp(seconds: 789, nanoseconds: 0)
        XCTAssertEqual(Model(x: first), Model(x: copy))
        XCTAssertNotEqual(Model(x: first), Model(x: other))
        XCTAssertEqual([Model(x: first): "foo"][Model(x: copy)], "foo")
    }

    func testServerTimestampOfDate() {
        struct Model: Codable, Hashable { @ServerTimestamp var x: Date? }
        XCTAssertEqual(Model(x: Date(timeIntervalSince1970: 42)), Model(x: Date(timeIntervalSince1970: 42)))
        XCTAssertNotEqual(Model(x: Date(timeIntervalSince1970: 42)), Model(x: Date(timeIntervalSince1970: 100)))
        XCTAssertEqual([Model(x: Date(timeIntervalSince1970: 42)): "foo"][Model(x: Date(timeIntervalSince1970: 42))], "foo")
    }
}

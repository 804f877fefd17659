@testable import DocumentStore
import DocumentStoreRemote
import Foundation
import XCTest

/// What a client of a Firestore server says when the server refuses a call or cannot be reached.
final class RemoteErrorsTests: StoreTestCase {
    func testTheServersStatusComesBackWithItsCodeAndMessage() throws {
        let half = String(repeating: "x", count: 550_000)
        let error = thrownError { try db.document("books/big").write(["text": half, "more": half]) } as? FirestoreErrorCode
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(error?.description.hasPrefix("document books/big is 11000") ?? false, "the server's own message: \(String(describing: error))")
        XCTAssertTrue(error?.description.hasSuffix("a document is at most 1 MiB (1048576 bytes)") ?? false)
    }

    func testAServerThatStoppedIsNamedAtOnceByEveryCall() throws {
        try db.document("books/dune").write(["pages": 412])
        let address = try XCTUnwrap(store.served?.address)
        store.served?.stop()
        // The server may take a moment to let go of the connection; then every call fails fast.
        let started = ContinuousClock.now
        var refused: FirestoreErrorCode?
        while refused == nil && ContinuousClock.now - started < .seconds(5) {
            do { _ = try db.document("books/dune").readDocument() } catch { refused = error as? FirestoreErrorCode }
        }
        let error = refused
        let failed = ContinuousClock.now
        XCTAssertEqual(error?.code, FirestoreErrorCode.unavailable.rawValue)
        XCTAssertTrue(error?.description.hasPrefix("the Firestore server at \(address) cannot be reached (reading books/dune)") ?? false,
                      "names the server and the call: \(String(describing: error))")
        let write = thrownError { try db.document("books/emma").write(["pages": 50]) } as? FirestoreErrorCode
        XCTAssertEqual(write?.code, FirestoreErrorCode.unavailable.rawValue)
        XCTAssertLessThan(ContinuousClock.now - failed, .seconds(2), "a refused connection is not waited for until the deadline")
    }

    func testAServerThatTakesTheConnectionButNeverAnswersFailsTheCallWithinItsDeadline() throws {
        // A socket that listens and never speaks: the kernel takes the connection, no one answers.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(silent, 0)
        defer { close(silent) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) == 0 && getsockname(silent, $0, &length) == 0 }
        }
        XCTAssertTrue(bound && listen(silent, 8) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        Firestore.enableFirestoreServers()
        let db = try Firestore(url: URL(string: "firestore://127.0.0.1:\(port)/silent")!)
        let started = ContinuousClock.now
        let error = thrownError { _ = try db.document("books/dune").readDocument() } as? FirestoreErrorCode
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(12), "no longer than the deadline of a read (10 s)")
        XCTAssertEqual(error?.code, FirestoreErrorCode.deadlineExceeded.rawValue)
        XCTAssertEqual(error?.description, "the Firestore server at 127.0.0.1:\(port) did not answer reading books/dune within 10 seconds")
    }

    func testAURLWithoutAProjectIsRefusedSayingWhatIsExpected() {
        Firestore.enableFirestoreServers()
        let error = thrownError { _ = try Firestore(url: URL(string: "firestore://127.0.0.1:8080")!) } as? FirestoreErrorCode
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description, "firestore://127.0.0.1:8080 has 0 path segments: expected firestore://host:port/project[/database]")
    }

    func testTheStoreNamesItsServerAndDatabase() throws {
        Firestore.enableFirestoreServers()
        let named = try Firestore(url: URL(string: "firestore://localhost:9000/demo/books")!)
        XCTAssertEqual(named.directory.absoluteString, "firestore://localhost:9000/demo/books")
        let byDefault = try Firestore(url: URL(string: "firestore://localhost/demo")!)
        XCTAssertEqual(byDefault.directory.absoluteString, "firestore://localhost:8080/demo", "the emulator's port when none is given")
    }
}

import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// `shelf check` lists a document whose file name is not valid UTF-8: the store reports it as a
/// document that cannot be read, never drops it.
final class UndecodableFileNameCheckTests: DemoDataTestCase {
    func testAFileNameInLatin1IsListedWithHowToFixIt() async throws {
        let before = try await DataCheck.run(on: db)
        // "café.json" with the é in Latin-1 (0xE9): not UTF-8.
        let path = Array(url("books").path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".json".utf8) + [0]
        let fd = path.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0, String(cString: strerror(errno)))
        close(fd)

        let check = try await DataCheck.run(on: db)
        XCTAssertEqual(check.checkedDocuments, before.checkedDocuments + 1)
        let problem = try XCTUnwrap(check.problems.first { $0.path == #"books/caf\xE9"# }, "\(check.problems.map(\.path))")
        XCTAssertNil(problem.field)
        XCTAssertEqual(problem.message, #"document books/caf\xE9 cannot be read: the file name "caf\xE9.json" is not valid UTF-8 "#
            + #"(the bytes that are not are shown as \xHH); the store cannot name this document: rename the file to a UTF-8 name"#)
        XCTAssertTrue(check.report.contains(problem.message))
        XCTAssertEqual(check.problems.count, before.problems.count + 1)
    }
}

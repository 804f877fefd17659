import DocumentStore
import FirestoreProtocol
import FirestoreServer
import GRPCCore
import XCTest

/// What the server logs: every failed call and every refused listen target always, one line
/// each; every call only when verbose.
final class ServedLogTests: XCTestCase {
    /// The lines a server logged, as its operator reads them on standard error.
    private final class Lines: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var log: ServerLog { log(verbose: false) }
        func log(verbose: Bool) -> ServerLog { ServerLog(verbose: verbose) { line in self.lines.withLock { $0.append(line) } } }
    }

    /// `2026-01-02T03:04:05.678Z Method resource 1.2 ms STATUS…`
    private static func isLine(_ line: String, _ method: String, _ resource: String, _ status: String) -> Bool {
        let prefix = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /#
        guard let start = line.prefixMatch(of: prefix) else { return false }
        let rest = line[start.range.upperBound...]
        guard rest.hasPrefix("\(method) \(resource) "), let ms = rest.range(of: " ms ") else { return false }
        return Double(rest[rest.index(rest.startIndex, offsetBy: method.count + resource.count + 2)..<ms.lowerBound]) != nil
            && rest[ms.upperBound...].hasPrefix(status)
    }

    func testAFailedCallIsLoggedAlwaysAndOneThatSucceededOnlyWhenVerbose() async throws {
        let quiet = Lines()
        try await ServedStore.with(.folder, log: quiet.log) { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412)])])
            _ = try await served.get("books/dune")
            _ = await status { try await served.get("books/missing") }
        }
        XCTAssertEqual(quiet.all.count, 1, quiet.all.joined(separator: "\n"))
        XCTAssertTrue(Self.isLine(quiet.all.first ?? "", "GetDocument", ServedStore.database + "/documents/books/missing", "NOT_FOUND: "), "\(quiet.all)")

        let verbose = Lines()
        try await ServedStore.with(.folder, log: verbose.log(verbose: true)) { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412)])])
            _ = await status { try await served.get("books/missing") }
        }
        XCTAssertEqual(verbose.all.count, 2, verbose.all.joined(separator: "\n"))
        XCTAssertTrue(Self.isLine(verbose.all.first ?? "", "Commit", ServedStore.database, "OK"), "\(verbose.all)")
        XCTAssertTrue(Self.isLine(verbose.all.last ?? "", "GetDocument", ServedStore.database + "/documents/books/missing", "NOT_FOUND: "), "\(verbose.all)")
    }

    /// A message of several lines stays one line of the log.
    func testAMessageOfSeveralLinesIsLoggedOnOneLine() async throws {
        let lines = Lines()
        try await ServedStore.with(.folder, log: lines.log) { served in
            var request = Google_Firestore_V1_GetDocumentRequest()
            request.name = "not\na name"
            _ = await status { try await served.client.getDocument(request) }
        }
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.allSatisfy { !$0.contains("\n") && $0.contains(" INVALID_ARGUMENT: ") }, "\(lines.all)")
    }

    /// A listen target refused is no failed call (the stream goes on), yet its operator sees it.
    func testARefusedListenTargetIsLogged() async throws {
        let lines = Lines()
        try await ServedStore.with(.folder, log: lines.log) { served in
            let bad = Google_Firestore_V1_ListenRequest.with {
                $0.database = ServedStore.database
                $0.addTarget.targetID = 4
                $0.addTarget.documents.documents = ["not a name"]
            }
            try await served.client.listen(requestProducer: { writer in
                try await writer.write(bad)
            }, onResponse: { response in
                for try await message in response.messages where message.targetChange.targetChangeType == .remove { break }
            })
        }
        XCTAssertTrue(lines.all.contains { $0.contains(" Listen \(ServedStore.database) target 4 INVALID_ARGUMENT: ") }, "\(lines.all)")
    }
}

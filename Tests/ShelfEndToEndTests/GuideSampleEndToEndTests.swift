import Foundation
import XCTest

/// The guide's sample app (`guide-sample`: its start-up code with only the import changed,
/// `useEmulator(withHost: "localhost", port:)` included) runs against a real `shelf serve`: the
/// program never enables the client module, it is found because it is linked. The server takes
/// a free port, handed to the sample in `SHELF_SAMPLE_PORT` (it defaults to the guide's 8080,
/// which the emulator may hold on a Firebase developer's machine).
final class GuideSampleEndToEndTests: XCTestCase {
    private var server: Process?
    private var folder: URL?

    override func tearDown() {
        if let server, server.isRunning { server.terminate(); server.waitUntilExit() }
        if let folder { removeTemporaryCopy(folder) }
        super.tearDown()
    }

    func testTheGuidesSampleAppRunsAgainstShelfServeWithOnlyItsImportChanged() throws {
        let folder = try temporaryDataCopy()
        self.folder = folder
        let serve = try ServeProcess(folder)
        server = serve.process
        let sample = try shelfBinary().deletingLastPathComponent().appendingPathComponent("guide-sample")
        let process = Process()
        process.executableURL = sample
        process.environment = ProcessInfo.processInfo.environment.merging(["SHELF_SAMPLE_PORT": String(serve.port)]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("hitchhiker: The Ultimate Hitchhiker's Guide to the Galaxy by Douglas Adams, 816 pages"), output)
        XCTAssertTrue(output.contains("does-not-exist: document books/does-not-exist does not exist"), output)
        XCTAssertTrue(output.contains("invalid-data: document books/invalid-data, field numberOfPages"), output)
        XCTAssertTrue(output.contains("61 colours"), output)
        XCTAssertTrue(output.contains("the listener now shows 62 colours"), output)
        XCTAssertEqual(try documentCount(in: folder, collections: ["colors"]), 62, "the added colour is a file of the served folder")
    }
}

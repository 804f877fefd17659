import Foundation
import XCTest

/// `shelf serve`'s options: refused before anything listens, each naming what was expected;
/// the addresses it takes and prints; what it logs.
final class ServeCommandTests: ScratchFolderTestCase {
    func testAPortOutsideTheRangeIsRefusedNamingIt() throws {
        // A negative number is the option's value, not taken for an option of its own.
        for port in ["-1", "99999"] {
            let result = try run(["serve", "--data", NSTemporaryDirectory(), "--port", port], timeout: 20)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.output.contains("--port must be within 0...65535, got \(port)"), result.output)
        }
    }

    func testAnEmptyHostIsRefused() throws {
        let result = try run(["serve", "--data", NSTemporaryDirectory(), "--host", ""], timeout: 20)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--host is empty"), result.output)
    }

    /// A host name is taken, as Google's emulator takes it: bound at its IPv4 address, and
    /// printed as given, so clients resolve it as they would the emulator's.
    func testAHostNameIsTakenAndPrintedAsGiven() throws {
        let server = try ServeProcess(scratch, options: ["--host", "localhost"])
        defer { _ = server.stop() }
        XCTAssertTrue(server.banner.contains("on localhost:\(server.port) (127.0.0.1) for"), server.banner)
        XCTAssertTrue(server.banner.contains("FIRESTORE_EMULATOR_HOST=localhost:\(server.port)\n"), server.banner)
        let list = try run(["list", "--data", "firestore://localhost:\(server.port)/demo"], timeout: 60)
        XCTAssertEqual(list.status, 0, list.output)
    }

    /// An IPv6 address is printed as clients write it, in brackets.
    func testAnIPv6AddressIsPrintedInBrackets() throws {
        let server = try ServeProcess(scratch, options: ["--host", "::1"])
        defer { _ = server.stop() }
        XCTAssertTrue(server.banner.contains("on [::1]:\(server.port) for"), server.banner)
        XCTAssertTrue(server.banner.contains("FIRESTORE_EMULATOR_HOST=[::1]:\(server.port)\n"), server.banner)
        XCTAssertFalse(server.banner.contains("ipv6"), server.banner)
        let list = try run(["list", "--data", "firestore://[::1]:\(server.port)/demo"], timeout: 60)
        XCTAssertEqual(list.status, 0, list.output)
    }

    func testAnUnknownHostIsRefusedNamingIt() throws {
        let folder = scratch.appendingPathComponent("never")
        let result = try run(["serve", "--data", folder.path, "--host", "no-such-host.invalid", "--port", "0"], timeout: 60)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--host no-such-host.invalid: no such address or host name"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
    }

    /// A port another server holds is refused in one message naming it, before the data
    /// folder is made: nothing is left behind.
    func testABusyPortIsRefusedNamingItAndCreatesNothing() throws {
        let holder = try ServeProcess(scratch.appendingPathComponent("holder", isDirectory: true))
        defer { _ = holder.stop() }
        let folder = scratch.appendingPathComponent("never")
        let result = try run(["serve", "--data", folder.path, "--port", String(holder.port)], timeout: 60)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("port \(holder.port) on 127.0.0.1 is already in use"), result.output)
        XCTAssertFalse(result.output.contains("listening address"), result.output)
        XCTAssertEqual(result.output.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "the data folder was made for a server that never listened")
    }

    /// Failed calls are logged always, one line each; every call only with --verbose.
    func testFailedCallsAreLoggedAlwaysAndEveryCallWithVerbose() throws {
        try Data(#"{"title": "Dune"}"#.utf8).write(to: scratch.appendingPathComponent("books/dune.json").creatingFolder())
        let quiet = try ServeProcess(scratch)
        _ = try run(["list", "--data", "firestore://127.0.0.1:\(quiet.port)/demo"], timeout: 60)
        // A GetDocument of a missing document, as any gRPC client sends it: NOT_FOUND.
        let missing = "projects/demo/databases/(default)/documents/books/missing"
        try grpcCall(port: quiet.port, method: "GetDocument", message: Data([0x0a, UInt8(missing.utf8.count)]) + Data(missing.utf8))
        let quietLog = quiet.stop().components(separatedBy: "\n").filter { $0.contains(" ms ") }
        XCTAssertFalse(quietLog.contains { $0.hasSuffix(" OK") }, "a call that succeeded was logged without --verbose:\n\(quietLog.joined(separator: "\n"))")
        XCTAssertTrue(quietLog.contains { $0.contains(" GetDocument \(missing) ") && $0.contains(" NOT_FOUND: ") }, quietLog.joined(separator: "\n"))

        let verbose = try ServeProcess(scratch, options: ["--verbose"])
        let list = try run(["list", "--data", "firestore://127.0.0.1:\(verbose.port)/demo"], timeout: 60)
        XCTAssertEqual(list.status, 0, list.output)
        let verboseLog = verbose.stop().components(separatedBy: "\n")
        // "2026-01-02T03:04:05.678Z RunQuery projects/demo/databases/(default)/documents 1.2 ms OK"
        let line = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z RunQuery projects\/demo\/databases\/\(default\)\/documents \d+\.\d ms OK$/
        XCTAssertTrue(verboseLog.contains { $0.wholeMatch(of: line) != nil }, verboseLog.joined(separator: "\n"))
    }
}

/// One unary gRPC call (`message`, a request's protobuf bytes) to Firestore's service on
/// `port` of 127.0.0.1, sent by curl over plaintext HTTP/2 as any gRPC client sends it.
private func grpcCall(port: Int, method: String, message: Data) throws {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = ["curl", "--silent", "--show-error", "--http2-prior-knowledge", "--max-time", "30", "--output", "/dev/null",
                      "-H", "content-type: application/grpc", "-H", "te: trailers", "--data-binary", "@-",
                      "http://127.0.0.1:\(port)/google.firestore.v1.Firestore/\(method)"]
    let input = Pipe()
    curl.standardInput = input
    try curl.run()
    // gRPC's framing: not compressed, the length big-endian, the message.
    var frame = Data([0])
    withUnsafeBytes(of: UInt32(message.count).bigEndian) { frame.append(contentsOf: $0) }
    input.fileHandleForWriting.write(frame + message)
    try input.fileHandleForWriting.close()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else { throw EndToEndFailure("curl (HTTP/2) could not call \(method): status \(curl.terminationStatus)") }
}

private extension URL {
    /// This file's URL, its folder made first.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}

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
}

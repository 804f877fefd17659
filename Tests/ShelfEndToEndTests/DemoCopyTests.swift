import Foundation
import XCTest

/// The first start copies the demo data from inside the binary: a `shelf` copied away from
/// the checkout (as an installed one is) makes a copy equal, byte for byte, to the repository's
/// `Data/`, and says so; the next start opens that copy as it is.
final class DemoCopyTests: ScratchFolderTestCase {
    private func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)!
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue && !relative.hasPrefix(".") { result[relative] = try Data(contentsOf: folder.appendingPathComponent(relative)) }
        }
        return result
    }

    /// Runs a copy of the binary that lives outside the checkout.
    private func runInstalled(_ arguments: [String], dataHome: Bool = true) throws -> (status: Int32, output: String) {
        let installed = scratch.appendingPathComponent("bin/shelf")
        if !FileManager.default.fileExists(atPath: installed.path) {
            try FileManager.default.createDirectory(at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: shelfBinary(), to: installed)
        }
        let process = Process()
        process.executableURL = installed
        process.arguments = arguments
        process.currentDirectoryURL = scratch
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path]
        if dataHome { process.environment?["XDG_DATA_HOME"] = scratch.appendingPathComponent("share").path }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func testAnInstalledBinaryCopiesTheDemoDataFromItself() throws {
        let first = try runInstalled(["check"])
        XCTAssertEqual(first.status, 1, "the demo data has its two broken documents: \(first.output)")
        let copy = scratch.appendingPathComponent("share/shelf")
        let copied = try files(in: copy), original = try files(in: demoDataFolder())
        XCTAssertEqual(copied.count, original.count)
        XCTAssertEqual(copied, original, "every file as in Data/ (run scripts/embed-demo-data.py after changing Data/)")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("share").path).contains { $0.hasPrefix(".shelf-demo") })

        try Data(##"{"name": "Mine", "color": "#123456"}"##.utf8).write(to: copy.appendingPathComponent("colors/mine.json"))
        let second = try runInstalled(["list"])
        XCTAssertEqual(second.status, 0, second.output)
        XCTAssertTrue(second.output.contains("  mine"), "the second start opens the copy as it is: \(second.output)")
    }

    /// `$HOME` decides where `~` is, as in every XDG program: a script that sets it keeps
    /// Shelf's copy out of the account's own home.
    func testWithoutXDGDataHomeTheCopyIsMadeUnderHOME() throws {
        let first = try runInstalled(["list"], dataHome: false)
        XCTAssertEqual(first.status, 0, first.output)
        let copy = scratch.appendingPathComponent(".local/share/shelf")
        XCTAssertEqual(try files(in: copy).count, try files(in: demoDataFolder()).count)
    }
}

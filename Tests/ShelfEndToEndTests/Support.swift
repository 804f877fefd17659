import Foundation
import XCTest

// Helpers for the tests that drive the built `shelf` binary: finding it, copying the demo data
// to a temporary folder, running a command. Nothing here imports the package's modules.

/// Why a helper could not do its job; the description says what to do about it.
struct EndToEndFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The package root: the first folder above this source file that holds `Package.swift`.
func packageRoot(from file: String = #filePath) throws -> URL {
    var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    while folder.path != "/" {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
        folder.deleteLastPathComponent()
    }
    throw EndToEndFailure("no Package.swift in any folder above \(file)")
}

/// The repository's demo data, `Data/` at the package root.
func demoDataFolder() throws -> URL {
    let data = try packageRoot().appendingPathComponent("Data", isDirectory: true)
    guard FileManager.default.fileExists(atPath: data.path) else { throw EndToEndFailure("the demo data folder \(data.path) is missing") }
    return data
}

/// The collections `shelf check` decodes, in its order.
let knownCollections = ["books", "colors", "programming-languages", "locations", "articles"]

private final class BundleMarker {}

/// The `shelf` executable of the build these tests belong to: `$SHELF_BINARY` when set, else
/// the `shelf` next to the test bundle (the build's products folder, whatever its scratch
/// path), else `.build/debug/shelf` under the package root. Throws, saying where it looked,
/// when there is none: `swift build` (or `swift test`, which builds it) first.
func shelfBinary() throws -> URL {
    let manager = FileManager.default
    var candidates: [URL] = []
    if let path = ProcessInfo.processInfo.environment["SHELF_BINARY"], !path.isEmpty {
        candidates.append(URL(fileURLWithPath: path))
    }
    // On Linux the test bundle is an executable in the products folder; on macOS a
    // `.xctest` bundle there. Either way the products folder is it or one of its parents.
    let starts = [
        Bundle(for: BundleMarker.self).bundleURL,
        Bundle.main.bundleURL,
        URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
    ]
    for start in starts {
        var folder = start.standardizedFileURL
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("shelf"))
            folder.deleteLastPathComponent()
        }
    }
    if let root = try? packageRoot() {
        candidates.append(root.appendingPathComponent(".build/debug/shelf"))
    }
    var seen: Set<String> = []
    for candidate in candidates where seen.insert(candidate.path).inserted {
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
           manager.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
    }
    throw EndToEndFailure("the shelf binary was not found; looked at: \(seen.sorted().joined(separator: ", ")). Build it first (swift build), or set SHELF_BINARY.")
}

/// A fresh copy of the demo data in its own temporary folder, returned as the copy's `Data`
/// folder. Remove it with `removeTemporaryCopy(_:)` (its parent folder goes too).
func temporaryDataCopy() throws -> URL {
    let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("ShelfEndToEndTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let copy = scratch.appendingPathComponent("Data", isDirectory: true)
    try FileManager.default.copyItem(at: demoDataFolder(), to: copy)
    return copy
}

/// Removes a folder made by `temporaryDataCopy()`, with the temporary folder around it.
func removeTemporaryCopy(_ copy: URL) {
    try? FileManager.default.removeItem(at: copy.deletingLastPathComponent())
}

/// How many documents (`.json` files) the collections of `folder` hold.
func documentCount(in folder: URL, collections: [String] = knownCollections) throws -> Int {
    try collections.reduce(0) { count, collection in
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(collection).path)
        return count + names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.count
    }
}

/// Runs the `shelf` binary with `arguments` and waits for it. `environment` is added to (and
/// overrides) this process's environment. Standard output and standard error are read through
/// one pipe, in the order the program wrote them; standard input is empty. A run that takes
/// longer than `timeout` seconds is terminated and throws. `launcher`, when given, is a
/// program and its arguments that run the binary (such as `setpriv` with capabilities dropped).
func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60, launcher: [String] = []
) throws -> (status: Int32, output: String) {
    let process = Process()
    let binary = try shelfBinary()
    if let program = launcher.first {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = launcher.dropFirst() + [binary.path] + arguments
    } else {
        process.executableURL = binary
        process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": testCacheFolder]) { _, new in new }
        .merging(environment) { _, new in new }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()

    let timedOut = TimeoutFlag()
    let watchdog = DispatchWorkItem { [process] in
        if process.isRunning {
            timedOut.set()
            process.terminate()
        }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    let output = String(decoding: data, as: UTF8.self)
    if timedOut.isSet {
        throw EndToEndFailure("shelf \(arguments.joined(separator: " ")) did not finish within \(timeout) s; output so far:\n\(output)")
    }
    return (process.terminationStatus, output)
}

/// The cache folder of every binary the tests run (`XDG_CACHE_HOME`), where large collections'
/// snapshot files go: one of the test run's own, not the user's.
let testCacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("ShelfEndToEndTests-cache-\(getpid())").path

private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

extension XCTestCase {
    /// `run(_:environment:timeout:)` for use inside a test case, whose own `run()` would
    /// otherwise hide the module-level function.
    func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60, launcher: [String] = []
    ) throws -> (status: Int32, output: String) {
        try ShelfEndToEndTests.run(arguments, environment: environment, timeout: timeout, launcher: launcher)
    }
}

/// A test with an empty folder of its own (`scratch`), made before each test and removed after.
class ScratchFolderTestCase: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.self)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
        scratch = nil
        super.tearDown()
    }
}

/// A test that drives the real binary in tmux: after each test its session is killed and its
/// temporary copy of the data removed.
class TmuxTestCase: XCTestCase {
    var session: TmuxSession?
    var dataFolder: URL?

    override func tearDown() {
        session?.kill()
        session = nil
        if let dataFolder { removeTemporaryCopy(dataFolder) }
        dataFolder = nil
        super.tearDown()
    }
}

/// Waits for the shell's `SHELF-EXITED n` line and checks what shelf left behind: the primary
/// screen with what was there before, a visible cursor, cooked mode with echo, keypad off.
func assertExitedAndRestored(_ tmux: TmuxSession, statuses: Set<Int32>, file: StaticString = #filePath, line: UInt = #line) {
    guard tmux.waitFor(text: "\(TmuxSession.exitedMarker) ", file: file, line: line) else { return }
    tmux.waitForScreen("stty's modes are printed", afterExit: true, file: file, line: line) { screen in
        let lines = screen.components(separatedBy: "\n")
        return lines.contains { $0 == "echo" || $0 == "-echo" }
    }
    let screen = tmux.screen()
    let lines = screen.components(separatedBy: "\n")
    let status = lines.lazy.compactMap { line -> Int32? in
        guard line.hasPrefix("\(TmuxSession.exitedMarker) ") else { return nil }
        return Int32(line.dropFirst(TmuxSession.exitedMarker.count + 1))
    }.first
    XCTAssertTrue(status.map { statuses.contains($0) } ?? false, "shelf's exit status should be one of \(statuses.sorted()):\n\(TmuxSession.framed(screen))", file: file, line: line)
    XCTAssertTrue(lines.contains(TmuxSession.preRunMarker), "The screen from before shelf ran should be back:\n\(TmuxSession.framed(screen))", file: file, line: line)
    XCTAssertFalse(screen.contains("┌ Books") || screen.contains("q quit"), "shelf's screen should be gone:\n\(TmuxSession.framed(screen))", file: file, line: line)
    XCTAssertTrue(lines.contains("icanon"), "The terminal should be back in canonical mode:\n\(TmuxSession.framed(screen))", file: file, line: line)
    XCTAssertTrue(lines.contains("echo"), "The terminal should echo again:\n\(TmuxSession.framed(screen))", file: file, line: line)
    XCTAssertEqual(tmux.paneFormat("#{alternate_on}"), "0", "The alternate screen should be left", file: file, line: line)
    XCTAssertEqual(tmux.paneFormat("#{cursor_flag}"), "1", "The cursor should be visible again", file: file, line: line)
    XCTAssertEqual(tmux.paneFormat("#{keypad_flag}"), "0", "The keypad should be back in normal mode", file: file, line: line)
    XCTAssertEqual(
        tmux.paneFormat("#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_all_flag}"), "0000",
        "Mouse reporting should be off", file: file, line: line)
}

extension TmuxSession {
    /// On the Colors tab: opens the form for a new colour and types its name and hex code,
    /// leaving the form open (Enter saves it).
    func fillNewColour(_ name: String, hex: String) {
        send(keys: "a")
        waitFor(text: "New colour")
        type(name)
        send(keys: "Tab")
        type(hex)
        waitFor(text: hex)
    }
}

import DocumentStore
import Foundation
import XCTest

/// The repository's demo data, found from this file's place in the package.
enum DemoData {
    /// The package root: the first folder above this file that holds `Package.swift`.
    static func packageRoot(from file: String = #filePath) throws -> URL {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        throw SupportFailure("no Package.swift above \(file)")
    }

    /// `Data/` at the package root.
    static func folder() throws -> URL {
        let data = try packageRoot().appendingPathComponent("Data", isDirectory: true)
        guard FileManager.default.fileExists(atPath: data.path) else { throw SupportFailure("the demo data is missing: \(data.path)") }
        return data
    }

    /// The collections `shelf check` knows, with the model names the tests expect.
    static let collections = ["books", "colors", "programming-languages", "locations", "articles"]
}

struct SupportFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A test case with a fresh copy of `Data/` for each test and a store on it (callbacks on the
/// main queue, as the app has them; polling every 50 ms). The copy is removed in tearDown.
class DemoDataTestCase: XCTestCase {
    /// Holds the copy (`Data`) and the temporary files that writes are renamed from.
    private(set) var scratch: URL!
    /// The copy of the demo data the store works on.
    private(set) var dataFolder: URL!
    private(set) var db: Firestore!

    static var settings: FirestoreSettings {
        let settings = FirestoreSettings()
        settings.pollingInterval = 0.05
        return settings
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("ShelfModelsTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        dataFolder = scratch.appendingPathComponent("Data", isDirectory: true)
        try FileManager.default.copyItem(at: DemoData.folder(), to: dataFolder)
        db = try Firestore(directory: dataFolder, settings: Self.settings)
    }

    override func tearDownWithError() throws {
        db = nil
        if let scratch { try FileManager.default.removeItem(at: scratch) }
        scratch = nil
        dataFolder = nil
        try super.tearDownWithError()
    }

    /// A store on a new, empty folder next to the copy.
    func emptyStore() throws -> Firestore {
        try Firestore(directory: scratch.appendingPathComponent("Empty-\(UUID().uuidString)", isDirectory: true), settings: Self.settings)
    }

    /// Runs `unsubscribe` at the end of the test, so no listener outlives its folder.
    func unsubscribeAtEnd(_ unsubscribe: @escaping @MainActor @Sendable () -> Void) {
        addTeardownBlock { await unsubscribe() }
    }

    // MARK: Files, as another program sees them

    func url(_ relative: String) -> URL { dataFolder.appendingPathComponent(relative) }

    /// Writes a whole file as an editor or a script does: a temporary file outside the data
    /// folder, renamed into place.
    func writeFile(_ relative: String, _ text: String) throws {
        let temporary = scratch.appendingPathComponent("editor-\(UUID().uuidString).tmp")
        try Data(text.utf8).write(to: temporary)
        let target = url(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(temporary.path, target.path) == 0 else {
            throw SupportFailure("rename \(temporary.path) to \(target.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Overwrites a file in place (truncate and write, same inode), as a plain `write` does.
    func overwriteInPlace(_ relative: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: url(relative))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    func removeFile(_ relative: String) throws {
        try FileManager.default.removeItem(at: url(relative))
    }

    func fileExists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relative).path)
    }

    /// A document's file parsed as a JSON object.
    func readJSON(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let data = try Data(contentsOf: url(relative))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                             "\(relative) is not a JSON object", file: file, line: line)
    }

    /// The ids of a collection's files, in Firestore's order (UTF-8 bytes).
    func documentIDs(in collection: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(collection).path)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .map { String($0.dropLast(".json".count)) }
            .sorted(by: firestoreOrder)
    }

    func documentCount(in collections: [String] = DemoData.collections) throws -> Int {
        try collections.reduce(0) { $0 + (try documentIDs(in: $1)).count }
    }
}

/// Firestore orders document ids by their UTF-8 bytes.
func firestoreOrder(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}

struct WaitTimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Polls `condition` on the main actor, sleeping 20 ms between looks so that the store's
/// callbacks (queued on the main queue) run, until it holds. After `timeout` the test fails
/// and this throws, so the test stops there. The timeout is a bound on a hang, not a measure.
@MainActor
func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
               file: StaticString = #filePath, line: UInt = #line,
               condition: @MainActor () throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try !condition() {
        guard clock.now < deadline else {
            XCTFail("timed out waiting until \(what())", file: file, line: line)
            throw WaitTimedOut(description: "timed out waiting until \(what())")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

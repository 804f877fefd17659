import Foundation
import XCTest

/// The `shelf-bench` executable, whose `write-loop` command is the child process of the crash
/// and multi-process tests. `swift test` builds every product, so it sits next to the test bundle.
enum ShelfBench {
    static func executable(file: StaticString = #filePath) -> URL? {
        var folders: [URL] = []
        let bundle = Bundle.main.bundleURL
        folders += [bundle, bundle.deletingLastPathComponent()]
        if let argument = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: argument).resolvingSymlinksInPath()
            folders += [runner.deletingLastPathComponent(), runner.deletingLastPathComponent().deletingLastPathComponent()]
        }
        for test in Bundle.allBundles where test.bundlePath.hasSuffix(".xctest") {
            folders.append(test.bundleURL.deletingLastPathComponent())
        }
        // Last resort: the package's default build folder.
        var package = URL(fileURLWithPath: "\(file)")
        for _ in 0..<3 { package.deleteLastPathComponent() }
        folders.append(package.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("shelf-bench")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Starts `shelf-bench write-loop DIR arguments...`; its standard error goes to a file that
    /// `failureOutput` reads.
    final class WriteLoop {
        let process = Process()
        private let errorFile: URL

        init(executable: URL, directory: URL, arguments: [String] = []) throws {
            errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("write-loop-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = executable
            process.arguments = ["write-loop", directory.path] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
        }

        func killHard() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        var failureOutput: String {
            (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        }

        deinit { try? FileManager.default.removeItem(at: errorFile) }
    }

    /// Any `shelf-bench` subcommand as a child process, its standard output in a pipe and its
    /// standard error in a file that `failureOutput` reads.
    final class Child {
        let process = Process()
        let output = Pipe()
        private let errorFile: URL

        init(executable: URL, arguments: [String]) throws {
            errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-bench-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
        }

        /// Waits for the process to end and returns what it printed; kills it after `timeout`
        /// seconds (a hung child fails the test instead of hanging it).
        func finish(timeout: TimeInterval = 180) -> String {
            let pid = process.processIdentifier
            let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
            defer { watchdog.cancel() }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }

        var failureOutput: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: errorFile)
        }
    }

    // The write loop's self-check, written out again here so the test checks it independently.

    /// `"<sequence>:"` repeated, cut to `length` bytes.
    static func payload(sequence: Int, length: Int) -> String {
        let unit = Array("\(sequence):".utf8)
        return String(decoding: (0..<length).map { unit[$0 % unit.count] }, as: UTF8.self)
    }

    /// FNV-1a, 64 bits, as 16 lowercase hex digits.
    static func checksum(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Why the bytes of a write-loop document are not one complete document, or nil when they are.
    static func problem(with bytes: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return "not a complete JSON object (\(bytes.count) bytes)"
        }
        guard let sequence = object["sequence"] as? Int, let length = object["length"] as? Int,
              let payload = object["payload"] as? String, let checksum = object["checksum"] as? String else {
            return "fields missing: \(object.keys.sorted())"
        }
        guard object.count == 4 else { return "unexpected fields: \(object.keys.sorted())" }
        guard payload.utf8.count == length, payload == Self.payload(sequence: sequence, length: length) else {
            return "payload of sequence \(sequence) is not its \(length) bytes"
        }
        guard checksum == Self.checksum(payload) else { return "checksum \(checksum) does not match" }
        return nil
    }

    // The batch mode's documents (shelf-bench BatchPattern), checked independently.

    /// Batch `b` sets `batches/doc-0...` to `{batch: b, index: i, payload: "<b>.<i>:"..., checksum}`
    /// and `batches/odd` to `{batch: b}` when b is odd, deleting it when b is even. Returns the
    /// batch the documents hold (nil for none yet), or throws what is partial.
    static func batchHeld(_ documents: [String: [String: Any]], size: Int) throws -> Int? {
        guard !documents.isEmpty else { return nil }
        var batches: Set<Int> = []
        for index in 0..<size {
            let id = "doc-\(index)"
            guard let fields = documents[id] else { throw BatchProblem("\(id) is missing beside \(documents.keys.sorted())") }
            guard let batch = (fields["batch"] as? NSNumber)?.intValue, (fields["index"] as? NSNumber)?.intValue == index,
                  let payload = fields["payload"] as? String, let checksum = fields["checksum"] as? String else {
                throw BatchProblem("\(id) lacks its fields: \(fields.keys.sorted())")
            }
            let unit = Array("\(batch).\(index):".utf8)
            let expected = String(decoding: (0..<payload.utf8.count).map { unit[$0 % unit.count] }, as: UTF8.self)
            guard payload == expected, checksum == Self.checksum(payload) else { throw BatchProblem("\(id) of batch \(batch) does not check") }
            batches.insert(batch)
        }
        guard batches.count == 1, let batch = batches.first else { throw BatchProblem("documents of batches \(batches.sorted()) side by side") }
        let odd = (documents["odd"]?["batch"] as? NSNumber)?.intValue
        guard batch % 2 == 1 ? odd == batch : documents["odd"] == nil else {
            throw BatchProblem("batch \(batch) with odd holding \(odd.map(String.init) ?? "nothing")")
        }
        guard documents.count == size + batch % 2 else { throw BatchProblem("unexpected documents \(documents.keys.sorted())") }
        return batch
    }

    /// The batch documents as the files hold them, read without the store.
    static func rawBatchDocuments(in folder: URL) throws -> [String: [String: Any]] {
        var documents: [String: [String: Any]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".json") && !name.hasPrefix(".") {
            // This process's listener may roll a journal forward meanwhile, deleting a listed file.
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw BatchProblem("\(name) is not an object") }
            documents[String(name.dropLast(5))] = object
        }
        return documents
    }

    struct BatchProblem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

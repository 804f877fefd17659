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
}

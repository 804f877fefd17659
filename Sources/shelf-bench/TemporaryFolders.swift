import Foundation

/// The benchmark's temporary folders: made fresh, removed afterwards, and removed too when the
/// run is interrupted (SIGINT, SIGTERM, SIGHUP).
final class TemporaryFolders: @unchecked Sendable {
    static let shared = TemporaryFolders()

    private let lock = NSLock()
    private var live: Set<String> = []
    private var sources: [DispatchSourceSignal] = []

    /// A new empty folder `<parent>/shelf-bench-<label>-XXXXXX`.
    func make(in parent: String, label: String) throws -> String {
        var template = Array("\(parent)/shelf-bench-\(label)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot make a temporary folder in \(parent): \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        lock.withLock { _ = live.insert(path) }
        return path
    }

    func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        lock.withLock { _ = live.remove(path) }
    }

    func removeOnSignals() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                let paths = lock.withLock { live }
                FileHandle.standardError.write(Data("\nshelf-bench: interrupted; removing \(paths.sorted().joined(separator: ", "))\n".utf8))
                for path in paths { try? FileManager.default.removeItem(atPath: path) }
                exit(128 + signalNumber)
            }
            source.resume()
            lock.withLock { sources.append(source) }
        }
    }
}

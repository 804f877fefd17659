import Foundation

/// The real `shelf serve` on a folder, started and listening; the test stops it.
struct ServeProcess {
    let process: Process
    /// The port it listens on (port 0 asked: the free one it took).
    let port: Int
    /// What it printed up to its `FIRESTORE_EMULATOR_HOST=host:port` line, that line included.
    let banner: String
    /// Standard output and standard error, together.
    private let output: FileHandle

    /// `options` are added to `serve --data folder --port port`.
    init(_ folder: URL, port: Int = 0, options: [String] = []) throws {
        process = Process()
        process.executableURL = try shelfBinary()
        process.arguments = ["serve", "--data", folder.path, "--port", String(port)] + options
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        output = pipe.fileHandleForReading
        try process.run()
        // "Serving Firestore (google.firestore.v1) on 127.0.0.1:PORT for …", then
        // "Clients: FIRESTORE_EMULATOR_HOST=127.0.0.1:PORT".
        let marker = "FIRESTORE_EMULATOR_HOST="
        var data = Data()
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if let start = text.range(of: marker), text[start.upperBound...].contains("\n") { break }
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw EndToEndFailure("shelf serve ended before listening: \(text)") }
            data.append(chunk)
        }
        banner = String(decoding: data, as: UTF8.self)
        let address = banner[banner.range(of: marker)!.upperBound...].prefix { $0 != "\n" }
        guard let colon = address.lastIndex(of: ":"), let listening = Int(address[address.index(after: colon)...]) else {
            process.terminate()
            throw EndToEndFailure("shelf serve printed no address: \(banner)")
        }
        self.port = listening
    }

    /// Stops it (as Ctrl-C would) and returns what it printed after its banner.
    func stop() -> String {
        if process.isRunning { process.interrupt() }
        let rest = output.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: rest, as: UTF8.self)
    }
}

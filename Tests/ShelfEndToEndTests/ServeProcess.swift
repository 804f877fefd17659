import Foundation

/// The real `shelf serve` on a folder, started and listening; the test stops it.
struct ServeProcess {
    let process: Process
    /// The port it listens on (port 0 asked: the free one it took).
    let port: Int

    init(_ folder: URL, port: Int = 0) throws {
        process = Process()
        process.executableURL = try shelfBinary()
        process.arguments = ["serve", "--data", folder.path, "--port", String(port)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // "Serving Firestore (google.firestore.v1) on 127.0.0.1:PORT for …"
        var output = Data()
        while let line = String(data: output, encoding: .utf8), !line.contains(" for ") {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw EndToEndFailure("shelf serve ended before listening: \(line)") }
            output.append(chunk)
        }
        let line = String(decoding: output, as: UTF8.self)
        guard let address = line.split(separator: " ").first(where: { $0.hasPrefix("127.0.0.1:") }),
              let listening = Int(address.dropFirst("127.0.0.1:".count)) else {
            process.terminate()
            throw EndToEndFailure("shelf serve printed no address: \(line)")
        }
        self.port = listening
    }
}

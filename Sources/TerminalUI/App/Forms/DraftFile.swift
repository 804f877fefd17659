import Foundation

/// Where the draft of one data folder is kept: `$XDG_STATE_HOME/shelf` (or
/// `~/.local/state/shelf`), one file per data folder, named by a hash of its path (of a
/// server's whole URL, whose path is only the database's name), so two folders or servers
/// never offer each other's drafts.
public struct DraftFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The draft file for `dataFolder` (or a server's URL), in the user's state folder as
    /// `environment` gives it.
    public init(dataFolder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let state: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            state = home.appendingPathComponent(".local/state", isDirectory: true)
        }
        let path = dataFolder.isFileURL ? dataFolder.standardizedFileURL.path : dataFolder.absoluteString
        url = state.appendingPathComponent("shelf", isDirectory: true)
            .appendingPathComponent("draft-\(Self.hash(path)).json")
    }

    /// FNV-1a of the path, in hex: stable across runs (Swift's Hasher is not).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100000001b3
        }
        return String(value, radix: 16)
    }

    /// The kept draft, or nil when there is none or it cannot be read (left in place then).
    public func load() -> FormDraft? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(FormDraft.self, from: data)
    }

    /// Writes the draft (temporary file, then rename), creating the folder; throws why not.
    public func save(_ draft: FormDraft) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(draft).write(to: url, options: .atomic)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

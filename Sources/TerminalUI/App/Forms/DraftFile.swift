import DocumentStore
import Foundation

/// Where the draft of one data folder is kept: `$XDG_STATE_HOME/shelf` (or
/// `~/.local/state/shelf`), one file per data folder, named by a hash of its path (of a
/// server's whole URL, whose path is only the database's name), so two folders or servers
/// never offer each other's drafts.
public struct DraftFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The draft file of `store`, in the user's state folder as `environment` gives it.
    public init(store: Firestore, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(place: store.placeName, environment: environment)
    }

    /// The draft file of the store at `place` (its `placeName`: a folder's path, or a server's
    /// URL without the password), in the user's state folder as `environment` gives it.
    public init(place: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let state = UserFolder.state.url(environment: environment)
        // "/data/a/" is the folder "/data/a".
        let place = place.count > 1 && place.hasSuffix("/") ? String(place.dropLast()) : place
        url = state.appendingPathComponent("shelf", isDirectory: true)
            .appendingPathComponent("draft-\(Self.hash(place)).json")
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
    /// A draft holds whatever was typed: the file is its owner's only (0600), in a folder
    /// only its owner can enter (0700), from the moment it exists.
    public func save(_ draft: FormDraft) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let bytes = try encoder.encode(draft)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        unlink(temporary.path)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("cannot create \(temporary.path)") }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary.path, url.path) == 0 else {
            let error = Self.failure("cannot write \(url.path)")
            unlink(temporary.path)
            throw error
        }
    }

    /// The reason `errno` gives, after what failed.
    private static func failure(_ what: String) -> Error {
        NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))"])
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

import DocumentStore
import Foundation

/// The folder Shelf works on, checked before anything touches the terminal so that a bad
/// path gets a plain message.
struct DataFolder {
    let url: URL
    /// Said once in the status line, e.g. that the demo data was copied.
    var notice: String?

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// A folder named on the command line: created when missing if its parent exists.
    static func given(_ path: String) throws -> DataFolder {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Problem(description: "\(url.path) is a file, not a folder: give --data a folder of collections") }
            guard manager.isReadableFile(atPath: url.path), manager.isExecutableFile(atPath: url.path) else {
                throw Problem(description: "cannot read the folder \(url.path): permission denied")
            }
            return DataFolder(url: url)
        }
        let parent = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Problem(description: "cannot create \(url.path): its parent folder \(parent.path) does not exist")
        }
        do {
            try manager.createDirectory(at: url, withIntermediateDirectories: false)
        } catch {
            throw Problem(description: "cannot create \(url.path): \(reason(error))")
        }
        return DataFolder(url: url, notice: "Created the empty folder \(url.path)")
    }

    /// `$XDG_DATA_HOME/shelf` (or `~/.local/share/shelf`), seeded from the repository's `Data/`
    /// the first time.
    static func demoCopy() throws -> DataFolder {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        let folder = base.appendingPathComponent("shelf")
        if FileManager.default.fileExists(atPath: folder.path) { return try given(folder.path) }
        guard let demo = bundledDemoData() else {
            throw Problem(description: "the demo data (the repository's Data/ folder) was not found next to this build; open a folder with --data DIR")
        }
        do {
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: demo, to: folder)
        } catch {
            throw Problem(description: "cannot copy the demo data to \(folder.path): \(reason(error))")
        }
        return DataFolder(url: folder, notice: "Copied the demo data to \(folder.path)")
    }

    /// The repository's `Data/`, found from this source file's place: `swift run` builds here.
    static func bundledDemoData() -> URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = root.appendingPathComponent("Data")
        return FileManager.default.fileExists(atPath: data.path) ? data : nil
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    func openStore(pollingInterval: TimeInterval? = nil) throws -> Firestore {
        let settings = FirestoreSettings()
        if let pollingInterval { settings.pollingInterval = pollingInterval }
        do {
            return try Firestore.configure(directory: url, settings: settings)
        } catch {
            throw Problem(description: "\(error)")
        }
    }
}

import DocumentStore
import Foundation

/// Where Shelf's documents are: a folder, checked before anything touches the terminal so that
/// a bad path gets a plain message, a PostgreSQL server (`postgresql://user:password@host:port/db`)
/// or a Firestore server (`firestore://host:port/project[/database]`: `shelf serve`, Google's emulator).
struct DataLocation {
    let url: URL
    /// Said once in the status line, e.g. that the demo data was copied.
    var notice: String?

    /// True for a database server rather than a folder.
    var isServer: Bool { !url.isFileURL }

    /// For messages: the folder's path, or the server's URL without its password.
    var displayName: String {
        guard isServer, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        if parts.password != nil { parts.password = nil }
        return parts.string ?? url.absoluteString
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// A folder named on the command line by `option`, or a server's URL. A missing folder is
    /// an error, unless `creatingMissing` (the app, export's destination, generate) and its
    /// parent exists: then it is made, empty.
    static func given(_ path: String, option: String = "--data", creatingMissing: Bool = false) throws -> DataLocation {
        guard !path.isEmpty else { throw Problem(description: "\(option) is empty: give a folder, a postgresql:// or a firestore:// URL") }
        try refuseUnknownScheme(path, option)
        if let scheme = path.range(of: "://").map({ path[..<$0.lowerBound].lowercased() }), let known = ServerSchemes.known[scheme] {
            guard let url = URL(string: path), url.host != nil else {
                throw Problem(description: "\(scheme):// address not understood: expected \(known.form)")
            }
            return DataLocation(url: url)
        }
        let url = folderURL(path)
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Problem(description: "\(url.path) is a file, not a folder: give \(option) a folder of collections") }
            guard manager.isReadableFile(atPath: url.path), manager.isExecutableFile(atPath: url.path) else {
                throw Problem(description: "cannot read the folder \(url.path): permission denied")
            }
            return DataLocation(url: url)
        }
        let parent = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Problem(description: creatingMissing ? "cannot create \(url.path): its parent folder \(parent.path) does not exist"
                : "the data folder \(url.path) does not exist, nor its parent folder \(parent.path)")
        }
        guard creatingMissing else { throw Problem(description: "the data folder \(url.path) does not exist") }
        do {
            try manager.createDirectory(at: url, withIntermediateDirectories: false)
        } catch {
            throw Problem(description: "cannot create \(url.path): \(reason(error))")
        }
        return DataLocation(url: url, notice: "Created the empty folder \(url.path)")
    }

    /// Refuses a URL of a scheme Shelf does not open (`http://x`), which would otherwise be
    /// taken for the relative folder `http:/x`. The URL itself is not repeated: it may hold a password.
    private static func refuseUnknownScheme(_ path: String, _ option: String) throws {
        guard let scheme = path.firstMatch(of: /^([a-zA-Z][a-zA-Z0-9+.\-]*):\/\//)?.1.lowercased(), ServerSchemes.known[scheme] == nil else { return }
        throw Problem(description: "\(option): Shelf does not open \(scheme):// URLs; give a folder path, \(ServerSchemes.serverURLs)")
    }

    /// A path as typed: `~` expanded, relative to the current folder, `.` and `..` resolved.
    private static func folderURL(_ path: String) -> URL {
        URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
    }

    /// Refuses a folder `path` (named by `option`) that is `location`, or inside it, or holds
    /// it, also through symbolic links: a copy into itself would never end. Real paths are
    /// compared folder by folder (`/a/b` does not hold `/a/bc`), as far as they exist.
    static func refuseOverlap(of location: DataLocation, _ locationOption: String, with path: String, _ option: String) throws {
        guard !path.isEmpty else { return }  // refused by `given`, which names the option
        try refuseUnknownScheme(path, option)
        let same = Problem(description: "\(locationOption) and \(option) are the same store (\(location.displayName)): export copies into another one")
        if location.isServer || ServerSchemes.known.keys.contains(where: { path.lowercased().hasPrefix($0 + "://") }) {
            if URL(string: path) == location.url { throw same }
            return
        }
        let other = folderURL(path)
        let (mine, theirs) = (realComponents(of: location.url), realComponents(of: other))
        if mine == theirs { throw same }
        if theirs.starts(with: mine) {
            throw Problem(description: "\(option) \(other.path) is inside \(locationOption) \(location.displayName): give a folder outside it")
        }
        if mine.starts(with: theirs) {
            throw Problem(description: "\(locationOption) \(location.displayName) is inside \(option) \(other.path): give a folder that does not hold it")
        }
    }

    /// The folders of `url`'s real path (symbolic links resolved): of its longest part that
    /// exists, then the rest as written.
    private static func realComponents(of url: URL) -> [String] {
        var folder = url, rest: [String] = []
        while folder.path != "/" {
            if let real = realpath(folder.path, nil) {
                defer { free(real) }
                return URL(fileURLWithPath: String(cString: real)).pathComponents + rest.reversed()
            }
            rest.append(folder.lastPathComponent)
            folder.deleteLastPathComponent()
        }
        return url.pathComponents
    }

    /// `$XDG_DATA_HOME/shelf` (or `~/.local/share/shelf`), made the first time from the demo
    /// data inside this binary (`DemoData`), so an installed `shelf` needs no checkout. Every
    /// command given no `--data` makes it: it is the one default, which no typo can name.
    static func demoCopy() throws -> DataLocation {
        let base = UserFolder.data.url()
        let folder = base.appendingPathComponent("shelf")
        if FileManager.default.fileExists(atPath: folder.path) { return try given(folder.path) }
        // Written beside it and renamed into place, so a copy cut short never passes for one.
        let partial = base.appendingPathComponent(".shelf-demo-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: partial)
            for file in DemoData.files {
                let target = partial.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: target)
            }
            try FileManager.default.moveItem(at: partial, to: folder)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw Problem(description: "cannot copy the demo data to \(folder.path): \(reason(error))")
        }
        return DataLocation(url: folder, notice: "Copied the demo data to \(folder.path)")
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// Opens the store and makes it the default (`Firestore.firestore()`, which the view
    /// models use).
    func openStore(pollingInterval: TimeInterval? = nil, settings: FirestoreSettings = FirestoreSettings()) throws -> Firestore {
        if let pollingInterval { settings.pollingInterval = pollingInterval }
        return try opening { try Firestore.configure(url: url, settings: settings) }
    }

    /// Opens a store on this location without making it the default (`export`'s destination).
    func openOtherStore() throws -> Firestore {
        try opening { try Firestore(url: url) }
    }

    /// postgresql:// and firestore:// open through the modules this program links.
    private func opening(_ open: () throws -> Firestore) throws -> Firestore {
        do { return try open() } catch { throw Problem(description: "\(error)") }
    }
}

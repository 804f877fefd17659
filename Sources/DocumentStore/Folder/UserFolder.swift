import Foundation

/// The user's base folders of the XDG Base Directory specification, found one way by every
/// part of Shelf: `$XDG_DATA_HOME`, `$XDG_STATE_HOME` or `$XDG_CACHE_HOME` when it is an
/// absolute path (a relative one is ignored, as the specification says), else the default under
/// `$HOME`, else under the account's home directory. `$HOME` comes first so a script that
/// sets it (a test, a sandbox) keeps Shelf's files out of the person's own home.
package enum UserFolder: Sendable {
    /// Shelf's own copy of the demo data.
    case data
    /// Drafts of forms.
    case state
    /// Collection snapshot files.
    case cache

    private var variable: String {
        switch self {
        case .data: "XDG_DATA_HOME"
        case .state: "XDG_STATE_HOME"
        case .cache: "XDG_CACHE_HOME"
        }
    }

    private var underHome: String {
        switch self {
        case .data: ".local/share"
        case .state: ".local/state"
        case .cache: ".cache"
        }
    }

    /// The folder as `environment` gives it.
    package func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let given = environment[variable], given.hasPrefix("/") {
            return URL(fileURLWithPath: given, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(underHome, isDirectory: true)
    }
}

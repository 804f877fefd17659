import Foundation
import Glibc

/// `$VISUAL`, else `$EDITOR`, else `vi`, run on one file while the app has left the screen
/// (lazygit's and k9s's `e`). The command goes through `/bin/sh -c` so `EDITOR="code -w"`
/// works. The editor gets the signals' default actions back: Shelf ignores SIGINT, SIGTERM,
/// SIGHUP and SIGWINCH to receive them through dispatch, and a child would inherit that.
struct ExternalEditor {
    let command: String

    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalEditor {
        let command = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
        return ExternalEditor(command: command)
    }

    /// Runs the editor on `file` and waits for it: nil when it exited with 0, else why not.
    func run(on file: URL) -> String? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // "$0" is the file, so no quoting of its path can go wrong.
        let arguments = ["/bin/sh", "-c", command + " \"$0\"", file.path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        guard spawned == 0 else { return "could not start \(command): \(String(cString: strerror(spawned)))" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return "waiting for \(command) failed: \(String(cString: strerror(errno)))" }
        }
        let signal = status & 0x7f
        if signal != 0 { return "\(command) was ended by signal \(signal)" }
        let code = (status >> 8) & 0xff
        // sh says 127 when the command is not found.
        if code == 127 { return "\(command) was not found: set VISUAL or EDITOR to your editor" }
        return code == 0 ? nil : "\(command) exited with status \(code)"
    }
}

import Foundation
import XCTest

/// Runs the real `shelf` binary inside a private tmux server (its own socket, `tmux -L <name>`),
/// in one window of a fixed size, and reads the screen back with `capture-pane`.
///
/// The pane runs a small shell script: it prints `PRE-RUN-MARKER`, runs shelf, then prints
/// `SHELF-EXITED <status>` and the terminal's `icanon`/`echo` modes as `stty` sees them, and stays
/// open, so a test can check what shelf left behind once it has exited (and a crash's backtrace
/// stays readable in the failure message).
final class TmuxSession {
    static let preRunMarker = "PRE-RUN-MARKER"
    static let exitedMarker = "SHELF-EXITED"
    static let defaultTimeout: TimeInterval = 10

    let socketName: String
    let binary: URL
    /// What `--data` names: a folder's path, or a server's URL.
    let data: String
    private let tmuxPath: String
    private var killed = false

    /// Starts shelf on `dataFolder` in a `width`×`height` terminal with `TERM=term`,
    /// `LANG=C.UTF-8`, `SWIFT_BACKTRACE=interactive=no`, `--poll-interval 100`, and `environment`
    /// added (for example `NO_COLOR=1`).
    ///
    /// TERM is set by `env` in the pane's own command: tmux 3.3 ignores `new-session -e TERM=…`
    /// and gives the pane `tmux-256color`, which would hide bugs in the keys other terminals send.
    convenience init(
        binary: URL, dataFolder: URL, width: Int = 100, height: Int = 30,
        term: String = "xterm-256color", environment: [String: String] = [:],
        arguments extraArguments: [String] = []
    ) throws {
        try self.init(binary: binary, data: dataFolder.path, width: width, height: height, term: term,
                      environment: environment, arguments: extraArguments)
    }

    /// As `init(binary:dataFolder:…)`, with `--data` as given: a server's URL.
    init(
        binary: URL, data: String, width: Int = 100, height: Int = 30,
        term: String = "xterm-256color", environment: [String: String] = [:],
        arguments extraArguments: [String] = []
    ) throws {
        guard let tmuxPath = TmuxSession.findTmux() else {
            throw EndToEndFailure(
                "tmux is not installed, and the end-to-end terminal tests need it: install it "
                    + "(Debian/Ubuntu: `apt-get install -y tmux`, macOS: `brew install tmux`); CI installs it")
        }
        self.tmuxPath = tmuxPath
        self.binary = binary
        self.data = data
        self.socketName = "shelf-e2e-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"

        let variables = [
            "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "interactive=no",
        ].merging(environment) { _, added in added }
        let assignments = ["TERM=\(term)"] + variables.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\($0.value)" }
        let shelfCommand = (["env"] + assignments + [binary.path, "--data", data, "--poll-interval", "100"] + extraArguments)
            .map(TmuxSession.shellQuoted).joined(separator: " ")
        let script = [
            "printf '%s\\n' \(Self.preRunMarker)",
            shelfCommand,
            "echo \"\(Self.exitedMarker) $?\"",
            "stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo",
            "exec sleep 100000",
        ].joined(separator: "; ")

        let arguments = ["new-session", "-d", "-s", "shelf", "-x", "\(width)", "-y", "\(height)", script]
        let result = try tmux(arguments)
        guard result.status == 0 else {
            throw EndToEndFailure("tmux new-session failed (\(result.status)): \(result.error)")
        }
        // Keep the window at the size asked for, whatever clients come and go.
        _ = try? tmux(["set-option", "-g", "window-size", "manual"])
    }

    deinit { kill() }

    // MARK: Driving

    /// Sends tmux key names (`Enter`, `Escape`, `Tab`, `BTab`, `C-c`, `BSpace`, `Up`, `q`, ...).
    func send(keys: String...) {
        send(keys: keys)
    }

    func send(keys: [String]) {
        guard !keys.isEmpty else { return }
        _ = try? tmux(["send-keys", "-t", "shelf"] + keys)
    }

    /// Sends raw bytes, given in hex (`send-keys -H`), as a terminal would for a key: "1b 5b 48".
    func send(hex: String) {
        _ = try? tmux(["send-keys", "-t", "shelf", "-H"] + hex.split(separator: " ").map(String.init))
    }

    /// Types `text` literally (`send-keys -l`).
    func type(_ text: String) {
        _ = try? tmux(["send-keys", "-t", "shelf", "-l", text])
    }

    /// Resizes the window, as a terminal emulator's window being resized does.
    func resize(width: Int, height: Int) throws {
        let result = try tmux(["resize-window", "-t", "shelf", "-x", "\(width)", "-y", "\(height)"])
        guard result.status == 0 else {
            throw EndToEndFailure("tmux resize-window failed (\(result.status)): \(result.error)")
        }
    }

    /// Sets a server option (`set-option -s`), such as `set-clipboard on`, with which tmux keeps
    /// what a program copies by OSC 52 as a paste buffer.
    func setServerOption(_ name: String, _ value: String) throws {
        let result = try tmux(["set-option", "-s", name, value])
        guard result.status == 0 else { throw EndToEndFailure("tmux set-option -s \(name) \(value) failed: \(result.error)") }
    }

    // MARK: Reading

    /// The newest paste buffer (`show-buffer`), or nil when there is none.
    func pasteBuffer() -> String? {
        guard let result = try? tmux(["show-buffer"]), result.status == 0 else { return nil }
        return result.output
    }

    /// The visible screen as plain text, one line per row.
    func screen() -> String {
        (try? tmux(["capture-pane", "-p", "-t", "shelf"]).output) ?? ""
    }

    /// The visible screen with its attributes as SGR escape sequences (`capture-pane -e`).
    func screenWithAttributes() -> String {
        (try? tmux(["capture-pane", "-p", "-e", "-t", "shelf"]).output) ?? ""
    }

    /// The screen with up to 300 rows that scrolled off above it (a crash's whole report).
    func history() -> String {
        let text = (try? tmux(["capture-pane", "-p", "-S", "-300", "-t", "shelf"]).output) ?? ""
        return text.components(separatedBy: "\n").filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Whether the shell has printed shelf's exit status: shelf is no longer running.
    var shelfHasExited: Bool {
        screen().components(separatedBy: "\n").contains { $0.hasPrefix("\(Self.exitedMarker) ") }
    }

    /// The screen's rows, without the empty row `capture-pane` ends with.
    func lines() -> [String] {
        var rows = screen().components(separatedBy: "\n")
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// A tmux format about the pane, such as `#{alternate_on}` or `#{cursor_flag}`.
    func paneFormat(_ format: String) -> String {
        let output = (try? tmux(["display-message", "-p", "-t", "shelf", format]).output) ?? ""
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process id of the shell the pane runs (shelf's parent).
    var panePID: Int32? { Int32(paneFormat("#{pane_pid}")) }

    /// shelf's process id: `pgrep -f` on the data folder's unique path (or the server's URL),
    /// among the pane shell's children (the shell's own command line names it too).
    func shelfPID() -> Int32? {
        guard let parent = panePID else { return nil }
        let result = try? Self.runProgram("/usr/bin/env", ["pgrep", "-P", "\(parent)", "-f", data])
        return result?.output.split(separator: "\n").compactMap { Int32($0) }.first
    }

    // MARK: Waiting

    /// Polls the screen until it contains `text`; fails with the last screen otherwise.
    @discardableResult
    func waitFor(
        text: String, timeout: TimeInterval = TmuxSession.defaultTimeout,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        waitForScreen("the screen shows \(String(reflecting: text))", timeout: timeout, file: file, line: line) {
            $0.contains(text)
        }
    }

    /// Polls the screen until it no longer contains `text`; fails with the last screen otherwise.
    @discardableResult
    func waitForAbsence(
        of text: String, timeout: TimeInterval = TmuxSession.defaultTimeout,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        waitForScreen("the screen no longer shows \(String(reflecting: text))", timeout: timeout, file: file, line: line) {
            !$0.contains(text)
        }
    }

    /// Polls the screen until `condition` holds for it; fails with `description` and the last
    /// screen. Fails at once if shelf has exited, unless `afterExit` (waiting for the shell).
    @discardableResult
    func waitForScreen(
        _ description: String, timeout: TimeInterval = TmuxSession.defaultTimeout, afterExit: Bool = false,
        file: StaticString = #filePath, line: UInt = #line, where condition: (String) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var last = screen()
        while !condition(last) {
            if !afterExit, last.contains("\n\(Self.exitedMarker) ") || last.hasPrefix("\(Self.exitedMarker) ") {
                XCTFail(
                    "shelf exited before \(description). The pane, with what scrolled off:\n\(Self.framed(history()))",
                    file: file, line: line)
                return false
            }
            if Date() >= deadline {
                XCTFail("Timed out waiting until \(description). Last screen:\n\(Self.framed(last))", file: file, line: line)
                return false
            }
            Thread.sleep(forTimeInterval: 0.05)
            last = screen()
        }
        return true
    }

    /// Waits until a condition outside the screen holds (a file on disk, a pane flag);
    /// fails with `description` and the last screen.
    @discardableResult
    func waitUntil(
        _ description: String, timeout: TimeInterval = TmuxSession.defaultTimeout,
        file: StaticString = #filePath, line: UInt = #line, check: () -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !check() {
            if Date() >= deadline {
                XCTFail("Timed out waiting until \(description). Last screen:\n\(Self.framed(screen()))", file: file, line: line)
                return false
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    /// The screen between two rules, for failure messages.
    static func framed(_ screen: String) -> String {
        let rule = String(repeating: "-", count: 40)
        return "\(rule)\n\(screen)\(screen.hasSuffix("\n") ? "" : "\n")\(rule)"
    }

    // MARK: Ending

    /// Stops the tmux server, and shelf with it.
    func kill() {
        guard !killed else { return }
        killed = true
        let shelf = shelfPID()
        let socket = paneFormat("#{socket_path}")
        _ = try? tmux(["kill-server"])
        // tmux leaves the socket file of a killed server behind.
        if socket.hasSuffix("/\(socketName)") { try? FileManager.default.removeItem(atPath: socket) }
        if let shelf, Self.isRunning(shelf) {
            Thread.sleep(forTimeInterval: 0.2)
            if Self.isRunning(shelf) { sendSignal(SIGKILL, to: shelf) }
        }
    }

    static func isRunning(_ pid: Int32) -> Bool {
        processExists(pid)
    }

    // MARK: Processes

    struct Output {
        var status: Int32
        var output: String
        var error: String
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> Output {
        try Self.runProgram(tmuxPath, ["-L", socketName, "-f", "/dev/null"] + arguments, environment: Self.tmuxEnvironment)
    }

    /// A small, predictable environment for the tmux server: no `TMUX`, no `NO_COLOR` or
    /// `TERM` of the terminal the tests run in.
    private static var tmuxEnvironment: [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["SHELL": "/bin/sh", "LANG": "C.UTF-8", "XDG_CACHE_HOME": testCacheFolder]
        for name in ["PATH", "HOME", "TMPDIR", "USER", "LOGNAME"] {
            if let value = inherited[name] { environment[name] = value }
        }
        if environment["PATH"] == nil { environment["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        return environment
    }

    /// Runs a program to completion and returns its status and output.
    ///
    /// Not with `Process`: a tmux server started by `new-session` forks from its client and
    /// inherits the client's descriptors, among them the socket `Process` watches for the
    /// child's end (and any pipe for its output), so `waitUntilExit` would wait as long as the
    /// server lives. Here the child gets only files for its output, and every other descriptor
    /// is closed in it; `waitpid` waits for the client alone.
    static func runProgram(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("shelf-e2e-run-\(UUID().uuidString)")
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("stdout")
        let errorFile = folder.appendingPathComponent("stderr")
        let status = try spawnAndWait(
            executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
            output: outputFile.path, error: errorFile.path)
        return Output(
            status: status,
            output: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
            error: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }

    static func findTmux() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return folders.map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Starts `executable` with standard input from /dev/null, standard output and error to the
/// given files and no other open descriptor, and waits for it; returns its exit status (128 + the
/// signal's number when a signal ended it).
private func spawnAndWait(
    _ executable: String, _ arguments: [String], environment: [String: String], output: String, error: String
) throws -> Int32 {
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    for descriptor in openDescriptors() where descriptor > 2 {
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else {
        throw EndToEndFailure("could not start \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else { throw EndToEndFailure("waitpid for \(executable) failed: \(String(cString: strerror(errno)))") }
    }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// The descriptors open in this process now (from /proc/self/fd, or /dev/fd).
private func openDescriptors() -> [Int32] {
    for folder in ["/proc/self/fd", "/dev/fd"] {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            return names.compactMap { Int32($0) }
        }
    }
    return Array(3..<256)
}

/// Sends a signal to a process (the global `kill`, which `TmuxSession.kill()` hides).
func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// Whether a process exists (signal 0).
func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0
}

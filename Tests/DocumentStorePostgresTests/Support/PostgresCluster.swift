import Foundation

/// The PostgreSQL server the tests use: the one `SHELF_POSTGRES_URL` names
/// (`postgresql://user:password@host:port/database`, a user allowed to create databases), or
/// else a throwaway cluster of our own: `initdb` in a temporary folder, a free port on
/// 127.0.0.1, stopped and removed when the test process exits. Run as root, the server runs as
/// `nobody` (PostgreSQL refuses root), in a folder it owns. `SHELF_POSTGRES_CLUSTERS` names
/// where the folders go (CI stops whatever is left there, even after a crash).
///
/// Each test store gets a database of its own (`makeDatabase`), dropped by `dropDatabase`.
/// Foundation only: the end-to-end tests, which drive the `shelf` binary and link none of the
/// package's modules, use this same file (a link) for a cluster of their own (`startOwn`).
final class PostgresCluster: @unchecked Sendable {
    static let user = "shelf"
    let host: String
    let port: Int
    let user: String
    let password: String
    /// The database that new ones are created from and dropped through.
    let maintenanceDatabase: String
    private let folder: URL?
    private let runAs: String?

    nonisolated(unsafe) private static var started: Result<PostgresCluster, Error>?
    private static let lock = NSLock()

    /// The cluster, started on first use.
    static func shared() throws -> PostgresCluster {
        lock.lock()
        defer { lock.unlock() }
        if started == nil {
            started = Result { try ProcessInfo.processInfo.environment["SHELF_POSTGRES_URL"].map(PostgresCluster.init(url:)) ?? PostgresCluster.start() }
            if case .success(let cluster) = started, cluster.folder != nil {
                atexit { PostgresCluster.stopShared() }
            }
        }
        return try started!.get()
    }

    private static func stopShared() {
        if case .success(let cluster) = started { cluster.stop() }
    }

    private init(url text: String) throws {
        guard let url = URLComponents(string: text), let host = url.host, let user = url.user else {
            throw ClusterFailure("SHELF_POSTGRES_URL is \(text); expected postgresql://user:password@host:port/database")
        }
        self.host = host
        port = url.port ?? 5432
        self.user = user
        password = url.password ?? ""
        maintenanceDatabase = url.path.isEmpty || url.path == "/" ? "postgres" : String(url.path.dropFirst())
        folder = nil
        runAs = nil
    }

    private init(host: String, port: Int, password: String, folder: URL, runAs: String?) {
        self.host = host
        self.port = port
        user = Self.user
        self.password = password
        maintenanceDatabase = "postgres"
        self.folder = folder
        self.runAs = runAs
    }

    /// The URL of `database` on this server, with `password` (the right one unless given).
    func url(database: String, password: String? = nil) -> URL {
        URL(string: "postgresql://\(user):\(password ?? self.password)@\(host):\(port)/\(database)")!
    }

    // MARK: Databases

    /// A new, empty database; its name.
    func makeDatabase() throws -> String {
        let name = "shelf_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql("CREATE DATABASE \(name)")
        return name
    }

    func dropDatabase(_ name: String) {
        _ = try? psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs SQL on the maintenance database (or `database`) with psql, the session's settings
    /// given as PGOPTIONS (`-c search_path=`); its output.
    @discardableResult
    func psql(_ sql: String, database: String? = nil, options: String = "") throws -> String {
        try Self.run(Self.tool("psql"), ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", "\(port)", "-U", user,
                                          "-d", database ?? maintenanceDatabase, "-c", sql],
                     environment: ["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "10", "PGOPTIONS": options])
    }

    // MARK: A cluster of our own

    /// A cluster for one test alone, which may stop and start its server; `stop()` removes it.
    static func startOwn() throws -> PostgresCluster { try start() }

    private static func start() throws -> PostgresCluster {
        let environment = ProcessInfo.processInfo.environment
        let parent = URL(fileURLWithPath: environment["SHELF_POSTGRES_CLUSTERS"] ?? NSTemporaryDirectory(), isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        stopAbandoned(in: parent)
        let folder = parent.appendingPathComponent("shelf-pg-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("\(getpid())".utf8).write(to: folder.appendingPathComponent("owner.pid"))
        let runAs: String? = geteuid() == 0 ? "nobody" : nil
        let password = UUID().uuidString
        let passwordFile = folder.appendingPathComponent("password")
        try Data(password.utf8).write(to: passwordFile)
        if let runAs { try run("/bin/chown", ["-R", "\(runAs):", folder.path]) }
        let data = folder.appendingPathComponent("data").path
        try run(tool("initdb"), ["-D", data, "-U", user, "--pwfile=\(passwordFile.path)", "--auth=scram-sha-256",
                                 "-E", "UTF8", "--no-locale", "--no-sync"], as: runAs)
        let cluster = PostgresCluster(host: "127.0.0.1", port: try freePort(), password: password, folder: folder, runAs: runAs)
        try cluster.startServer()
        return cluster
    }

    /// Starts the server (again: its data stays) on its port, and waits until it answers.
    func startServer() throws {
        guard let folder else { throw ClusterFailure("the server at \(host):\(port) is not ours to start") }
        let options = "-p \(port) -c listen_addresses=127.0.0.1 -k \(folder.path) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        try Self.run(Self.tool("pg_ctl"), ["-D", folder.appendingPathComponent("data").path, "-l", folder.appendingPathComponent("server.log").path,
                                           "-w", "-t", "60", "-o", options, "start"], as: runAs)
    }

    /// Stops the server as an administrator would (`pg_ctl stop -m fast`: clients are cut off),
    /// keeping its data for `startServer()`.
    func stopServer() throws {
        guard let folder else { throw ClusterFailure("the server at \(host):\(port) is not ours to stop") }
        try Self.run(Self.tool("pg_ctl"), ["-D", folder.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"], as: runAs)
    }

    /// Stops and removes the clusters of test processes that died without stopping theirs
    /// (a crash skips `atexit`).
    private static func stopAbandoned(in parent: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix("shelf-pg-") {
            let folder = parent.appendingPathComponent(name, isDirectory: true)
            guard let text = try? String(contentsOf: folder.appendingPathComponent("owner.pid"), encoding: .utf8),
                  let owner = pid_t(text), kill(owner, 0) != 0 && errno == ESRCH else { continue }
            var status = stat()
            let runAs = stat(folder.path, &status) == 0 && status.st_uid != geteuid() ? "nobody" : nil
            PostgresCluster(host: "", port: 0, password: "", folder: folder, runAs: runAs).stop()
        }
    }

    func stop() {
        guard let folder else { return }
        _ = try? Self.run(Self.tool("pg_ctl"), ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"], as: runAs)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A PostgreSQL program: on the PATH, or in Debian's /usr/lib/postgresql/<version>/bin.
    static func tool(_ name: String) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        for folder in path + debian where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
            return folder + "/" + name
        }
        throw ClusterFailure("\(name) was not found on the PATH nor in /usr/lib/postgresql/*/bin: install PostgreSQL (apt-get install postgresql) or set SHELF_POSTGRES_URL")
    }

    /// A port that was free a moment ago on 127.0.0.1.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ClusterFailure("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program to its end; its standard output, or an error with what it printed.
    /// posix_spawn and waitpid: Foundation's `Process.waitUntilExit` can miss the end of a
    /// program (pg_ctl) that leaves a daemon behind.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], as user: String? = nil, environment: [String: String] = [:]) throws -> String {
        let argv = user.map { ["/usr/sbin/runuser", "-u", $0, "--", program] } ?? [program]
        let all = argv + arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-pg-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        var cArguments = all.map { strdup($0) } + [nil]
        var cEnvironment = variables.map { strdup($0) } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, all[0], &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw ClusterFailure("cannot run \(all[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let exitCode = (status >> 8) & 0xff
        guard status & 0x7f == 0 && exitCode == 0 else {
            throw ClusterFailure("\(all.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }
}

struct ClusterFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

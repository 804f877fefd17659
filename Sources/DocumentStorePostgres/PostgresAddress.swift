import DocumentStore
import Foundation
import PostgresNIO

/// Where a store's server is, from `postgresql://user:password@host:port/database[?pool=N]`:
/// what to connect with, how many connections to keep for calls (`pool`, 1 to 64, 4 by
/// default), and how messages name it (the URL without its password).
struct PostgresAddress: Sendable {
    let configuration: PostgresConnection.Configuration
    /// The same, for PostgresNIO's pool (`PostgresConnections`).
    let clientConfiguration: PostgresClient.Configuration
    let description: String
    let poolSize: Int
    static let defaultPoolSize = 4

    /// A new connection to the server, blocking until it is open; each has an id of its own
    /// (`PostgresServer` knows a connection's server process by it).
    func connect(logger: Logger) throws -> PostgresConnection {
        let configuration = configuration
        return try BlockingBridge.call {
            try await PostgresConnection.connect(configuration: configuration, id: Int.random(in: 0..<Int.max), logger: logger)
        }
    }

    init(url: URL) throws {
        // The host as written, not `components.host`, whose IDNA decoding loads ICU's tables:
        // 11 ms of every start, before the first row could be asked for.
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let host = components.percentEncodedHost?.removingPercentEncoding, !host.isEmpty else {
            throw FirestoreErrorCode(.invalidArgument, "cannot read the server in \(Self.redacted(url)): expected postgresql://user:password@host:port/database")
        }
        let user = components.user ?? "postgres"
        let port = components.port ?? 5432
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else {
            throw FirestoreErrorCode(.invalidArgument, "\(Self.redacted(url)) names no database: expected postgresql://user:password@host:port/database")
        }
        poolSize = try Self.poolSize(components, url)
        let (username, password) = (user.removingPercentEncoding ?? user, components.password?.removingPercentEncoding ?? components.password)
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password,
            database: database.removingPercentEncoding ?? database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        var clientConfiguration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password,
            database: database.removingPercentEncoding ?? database, tls: .disable)
        clientConfiguration.options.connectTimeout = .seconds(10)
        self.clientConfiguration = clientConfiguration
        description = "postgresql://\(user)@\(host):\(port)/\(database)"
    }

    private static func poolSize(_ components: URLComponents, _ url: URL) throws -> Int {
        guard let text = components.queryItems?.last(where: { $0.name == "pool" })?.value else { return defaultPoolSize }
        guard let size = Int(text), (1...64).contains(size) else {
            throw FirestoreErrorCode(.invalidArgument, "pool=\(text) in \(redacted(url)): expected a number of connections from 1 to 64")
        }
        return size
    }

    /// The URL as the user wrote it, less the password.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.scheme ?? "the URL" }
        components.password = nil  // left out, not masked: a mask would show percent-encoded
        return components.string ?? url.scheme ?? "the URL"
    }
}

extension PostgresConnection {
    /// Closes the connection and waits until it is (PostgresNIO wants every connection closed
    /// before it goes); a connection closed already is as good.
    func closeWaiting() {
        _ = try? BlockingBridge.call { try await self.close() }
    }
}

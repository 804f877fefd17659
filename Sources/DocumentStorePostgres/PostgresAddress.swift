import DocumentStore
import Foundation
import PostgresNIO

/// Where a store's server is, from `postgresql://user:password@host:port/database`: what to
/// connect with, and how messages name it (the URL without its password).
struct PostgresAddress: Sendable {
    let configuration: PostgresConnection.Configuration
    let description: String

    init(url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let host = components.host, !host.isEmpty else {
            throw FirestoreErrorCode(.invalidArgument, saying: "cannot read the server in \(Self.redacted(url)): expected postgresql://user:password@host:port/database")
        }
        let user = components.user ?? "postgres"
        let port = components.port ?? 5432
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else {
            throw FirestoreErrorCode(.invalidArgument, saying: "\(Self.redacted(url)) names no database: expected postgresql://user:password@host:port/database")
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding ?? components.password,
            database: database.removingPercentEncoding ?? database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        description = "postgresql://\(user)@\(host):\(port)/\(database)"
    }

    /// The URL as the user wrote it, less the password.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.scheme ?? "the URL" }
        if components.password != nil { components.password = "…" }
        return components.string ?? url.absoluteString
    }
}

import DocumentStore
import Foundation
import PostgresNIO

extension Firestore {
    /// Where Firestore's named database `name` lives beside the store at `url`: the PostgreSQL
    /// database `<database>__<name>` on the same server, made when missing (the URL's user
    /// needs the CREATEDB privilege for that). A database of its own, so a named database is
    /// never mixed with `(default)`, and backing one up or dropping it is PostgreSQL's own.
    package static func postgreSQLURL(ofDatabase name: String, besides url: URL) throws -> URL {
        let address = try PostgresAddress(url: url)
        let base = address.configuration.database ?? ""
        let target = "\(base)__\(name)"
        guard target.utf8.count <= 63 else {
            throw FirestoreErrorCode(.invalidArgument, saying: "database \"\(name)\": its PostgreSQL database \(target) would be longer than PostgreSQL's 63 bytes; use a shorter name")
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw FirestoreErrorCode(.invalidArgument, saying: "cannot read \(PostgresAddress.redacted(url))")
        }
        components.percentEncodedPath = "/" + (target.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? target)
        guard let named = components.url else {
            throw FirestoreErrorCode(.invalidArgument, saying: "cannot make the URL of database \(target) from \(PostgresAddress.redacted(url))")
        }
        var logger = Logger(label: "DocumentStorePostgres")
        logger.logLevel = .critical
        let doing = "make database \(target) on"
        let connection: PostgresConnection
        do {
            connection = try address.connect(logger: logger)
        } catch {
            throw PostgresFailure.error(error, server: address.description, doing: doing)
        }
        defer { try? connection.close().wait() }
        let queries = PostgresQueries(connection: connection, logger: logger)
        do {
            guard try queries.rows("SELECT 1 FROM pg_database WHERE datname = \(target)").isEmpty else { return named }
            // An identifier cannot be a bind parameter; Firestore's database ids (lowercase
            // letters, digits, hyphens) need no escaping, but quote it as PostgreSQL does anyway.
            let quoted = "\"" + target.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            try queries.rows(PostgresQuery(unsafeSQL: "CREATE DATABASE \(quoted)"))
        } catch where PostgresFailure.sqlState(error) == "42P04" {
            // Made meanwhile by another server on the same PostgreSQL: as good.
        } catch {
            throw PostgresFailure.error(error, server: address.description, doing: doing)
        }
        return named
    }
}

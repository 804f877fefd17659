import DocumentStore
import Foundation
import PostgresNIO

/// The stores beside a PostgreSQL store (`NeighbourStores`): each a database of its own on the
/// same server, so a named database or another project is never mixed with the store's own
/// documents, and backing one up or dropping it is PostgreSQL's own.
enum PostgresNeighbours {
    /// What `ServerSchemes` asks for postgresql:// URLs.
    static let neighbours = ServerSchemes.Neighbours(
        database: { name, url in try database(suffix: "__\(name)", besides: url, for: "database \"\(name)\"") },
        project: { id, url in try database(suffix: "~\(id)", besides: url, for: "project \"\(id)\"") },
        owner: { id, url in try owner(of: url, claiming: id) })

    /// The project whose data the database at `url` is, recorded in its `shelf_project` table
    /// when first served; `claiming` becomes it when none is recorded.
    private static func owner(of url: URL, claiming id: String) throws -> String {
        let address = try PostgresAddress(url: url)
        return try withConnection(to: address, doing: "record the project of") { queries in
            try queries.rows(PostgresQuery(unsafeSQL: "CREATE TABLE IF NOT EXISTS shelf_project (id text NOT NULL, only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row))"))
            try queries.rows("INSERT INTO shelf_project (id) VALUES (\(id)) ON CONFLICT DO NOTHING")
            guard let owner = try queries.rows("SELECT id FROM shelf_project").first?.decode(String.self) else {
                throw FirestoreErrorCode(.dataLoss, "the shelf_project table of \(address.description) names no project")
            }
            return owner
        }
    }

    /// The database named as the store's with `suffix` (`<database>__<name>` for Firestore's
    /// named database `name`, `<database>~<id>` for project `id`: `~` is in neither project ids
    /// nor database ids, so the two never meet), made when missing (the URL's user needs the
    /// CREATEDB privilege for that).
    private static func database(suffix: String, besides url: URL, for what: String) throws -> URL {
        let address = try PostgresAddress(url: url)
        let target = (address.configuration.database ?? "") + suffix
        guard target.utf8.count <= 63 else {
            throw FirestoreErrorCode(.invalidArgument, "\(what): its PostgreSQL database \(target) would be longer than PostgreSQL's 63 bytes; use a shorter name")
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw FirestoreErrorCode(.invalidArgument, "cannot read \(PostgresAddress.redacted(url))")
        }
        components.percentEncodedPath = "/" + (target.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? target)
        guard let named = components.url else {
            throw FirestoreErrorCode(.invalidArgument, "cannot make the URL of database \(target) from \(PostgresAddress.redacted(url))")
        }
        try withConnection(to: address, doing: "make database \(target) on") { queries in
            do {
                guard try queries.rows("SELECT 1 FROM pg_database WHERE datname = \(target)").isEmpty else { return }
                // An identifier cannot be a bind parameter; quote it as PostgreSQL does.
                let quoted = "\"" + target.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                try queries.rows(PostgresQuery(unsafeSQL: "CREATE DATABASE \(quoted)"))
            } catch where PostgresFailure.sqlState(error) == "42P04" {
                // Made meanwhile by another server on the same PostgreSQL: as good.
            }
        }
        return named
    }

    private static func withConnection<T>(to address: PostgresAddress, doing: String, _ body: (PostgresQueries) throws -> T) throws -> T {
        var logger = Logger(label: "DocumentStorePostgres")
        logger.logLevel = .critical
        let connection: PostgresConnection
        do {
            connection = try address.connect(logger: logger)
        } catch {
            throw PostgresFailure.error(error, server: address.description, doing: doing)
        }
        defer { connection.closeWaiting() }
        do {
            return try body(PostgresQueries(connection: connection, logger: logger))
        } catch let error as FirestoreErrorCode {
            throw error
        } catch {
            throw PostgresFailure.error(error, server: address.description, doing: doing)
        }
    }
}

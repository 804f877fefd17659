import DocumentStore
import Foundation
import PostgresNIO

/// Past versions of documents on PostgreSQL (`PastVersion`), for reads at a past time: the
/// table `shelf_versions` (migration 12), where a trigger keeps each row of `shelf_documents`
/// that any writer updates or deletes, in the same transaction, with the time of the commit
/// that replaced it. They live in the database, so they survive restarts and are shared by
/// every client; a commit removes those past the window (`PastVersion.window`), at most once a
/// minute per client, so the table holds an hour of replaced documents.
extension PostgresServer {
    func replacedDocuments(_ scope: VersionScope, after time: Timestamp) throws -> [(document: ServerDocument, replaced: Timestamp)]? {
        let columns = "path, fields::text, \(Self.timesColumns), (extract(epoch FROM replaced_at) * 1000000)::int8"
        let after = time.rfc3339
        let query: PostgresQuery = switch scope {
        case .documents(let paths):
            "SELECT \(unescaped: columns) FROM shelf_versions WHERE path = ANY(\(paths.map(\.description))) AND replaced_at > \(after)::timestamptz"
        case .collection(let path):
            "SELECT \(unescaped: columns) FROM shelf_versions WHERE parent = \(path.description) AND replaced_at > \(after)::timestamptz"
        case .group(let id):
            "SELECT \(unescaped: columns) FROM shelf_versions WHERE collection_id = \(id) AND replaced_at > \(after)::timestamptz"
        case .below(let parent) where parent.segments.isEmpty:
            "SELECT \(unescaped: columns) FROM shelf_versions WHERE replaced_at > \(after)::timestamptz"
        case .below(let parent):
            "SELECT \(unescaped: columns) FROM shelf_versions WHERE starts_with(path, \(parent.description + "/")) AND replaced_at > \(after)::timestamptz"
        }
        return try withConnection(doing: "read past versions of documents from") { connection in
            try PostgresQueries(connection: connection, logger: logger).rows(query).map { row in
                let (path, json, created, updated, replaced) = try row.decode((String, String, Int64, Int64, Int64).self)
                return (ServerDocument(path: path, json: PostgresNulEscape.original(json: json), times: Self.times(created: created, updated: updated)),
                        Self.timestamp(microseconds: replaced))
            }
        }
    }

    /// Removes the versions past the window, when this client has not for a minute.
    func pruneVersions() {
        let now = Int64(Date().timeIntervalSince1970)
        let due = versionsPrunedAt.withLock { last in
            guard now - last >= 60 else { return false }
            last = now
            return true
        }
        guard due else { return }
        _ = try? withConnection(doing: "remove old versions of documents from") { connection in
            try PostgresQueries(connection: connection, logger: logger).rows(
                "DELETE FROM shelf_versions WHERE replaced_at < now() - make_interval(secs => \(Double(PastVersion.window)))")
        }
    }
}

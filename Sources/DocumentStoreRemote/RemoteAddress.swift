import DocumentStore
import Foundation

/// Where a Firestore server is and which database of it a store opens, from
/// `firestore://host:port/project[/database]` (port 8080, the emulator's, when left out;
/// database `(default)`).
struct RemoteAddress: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let project: String
    let database: String

    static let defaultPort = 8080

    init(_ url: URL) throws {
        guard let host = url.host, !host.isEmpty else {
            throw FirestoreErrorCode(.invalidArgument, "\(url.absoluteString) names no host: expected firestore://host:port/project[/database]")
        }
        let segments = url.path.split(separator: "/").map(String.init)
        guard (1...2).contains(segments.count) else {
            throw FirestoreErrorCode(.invalidArgument, "\(url.absoluteString) has \(segments.count) path segments: expected firestore://host:port/project[/database]")
        }
        self.host = host
        port = url.port ?? Self.defaultPort
        project = segments[0]
        database = segments.count == 2 ? segments[1] : "(default)"
    }

    /// `projects/p/databases/d`, as requests name the database.
    var databaseName: String { "projects/\(project)/databases/\(database)" }
    var documentsName: String { name(of: ResourcePath(segments: [])) }

    /// The name of the document or collection at `path` (the root: the database's documents).
    func name(of path: ResourcePath) -> String { ResourceName.name(of: path.segments, inDatabase: databaseName) }

    /// The database `name` of the same server and project (Firestore's named databases).
    func database(_ name: String) -> URL? {
        URL(string: "firestore://\(server)/\(project)/\(name)")
    }

    /// The `(default)` database of project `id` on the same server.
    func project(_ id: String) -> URL? {
        URL(string: "firestore://\(server)/\(id)")
    }

    /// The stores beside a firestore:// URL (`NeighbourStores`): the URL names its project, so
    /// the store is that project's, and another project is the same server's project of that id.
    static let neighbours = ServerSchemes.Neighbours(
        database: { name, url in
            guard let named = try RemoteAddress(url).database(name) else {
                throw FirestoreErrorCode(.invalidArgument, "database \"\(name)\" cannot be named in a firestore:// URL")
            }
            return named
        },
        project: { id, url in
            guard let other = try RemoteAddress(url).project(id) else {
                throw FirestoreErrorCode(.invalidArgument, "project \"\(id)\" cannot be named in a firestore:// URL")
            }
            return other
        },
        owner: { _, url in try RemoteAddress(url).project })

    /// `host:port`, as messages name the server.
    var server: String { "\(host):\(port)" }

    var description: String {
        "firestore://\(server)/\(project)" + (database == "(default)" ? "" : "/\(database)")
    }
}

/// A name as Firestore's requests give it: `projects/{project}/databases/{database}`, then
/// `/documents` and a document's or collection's path (`/documents/books/dune`), as in
/// `Document.name`, `parent` and `database`. Parsing says what is wrong with a name in the words
/// a status message can carry.
public struct ResourceName: Hashable, Sendable, CustomStringConvertible {
    public var project: String
    public var database: String
    /// The segments after `/documents`: empty for the database's root.
    public var path: [String]

    public init(project: String, database: String, path: [String] = []) {
        self.project = project
        self.database = database
        self.path = path
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses a database name (`projects/p/databases/d`) or a name under its documents.
    public init(parsing text: String) throws(Problem) {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 4, segments[0] == "projects", segments[2] == "databases",
              !segments[1].isEmpty, !segments[3].isEmpty else {
            throw Problem(description: "\"\(text)\" is not a name of the form projects/{project_id}/databases/{database_id}[/documents/{path}]")
        }
        var path = Array(segments.dropFirst(4))
        if !path.isEmpty {
            guard path.removeFirst() == "documents" else {
                throw Problem(description: "\"\(text)\": after the database comes /documents")
            }
            if path == [""] { path = [] }  // ".../documents/"
            if let empty = path.firstIndex(where: \.isEmpty) {
                throw Problem(description: "\"\(text)\" has an empty segment at \(empty + 1) of its path")
            }
        }
        self.init(project: segments[1], database: segments[3], path: path)
    }

    /// The database's name, `projects/p/databases/d`.
    public var databaseName: String { "projects/\(project)/databases/\(database)" }

    public var description: String {
        path.isEmpty ? databaseName + "/documents" : databaseName + "/documents/" + path.joined(separator: "/")
    }
}

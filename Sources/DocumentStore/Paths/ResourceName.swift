/// A name as Firestore's requests and bundles give it: `projects/{project}/databases/{database}`,
/// then `/documents` and a document's or collection's path (`/documents/books/dune`), as in
/// `Document.name`, `parent` and `database`. The one parser of such names (the server, the
/// client, bundles): split on the byte "/", an empty segment refused as Firestore refuses it.
/// Parsing says what is wrong with a name in the words a status message can carry.
package struct ResourceName: Hashable, Sendable, CustomStringConvertible {
    package var project: String
    package var database: String
    /// The segments after `/documents`: empty for the database's root.
    package var path: [String]

    package init(project: String, database: String, path: [String] = []) {
        self.project = project
        self.database = database
        self.path = path
    }

    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// Parses a database name (`projects/p/databases/d`), unless `underDocuments`, or a name
    /// under its documents (`…/documents` is the root; so is `…/documents/`, as Firebase
    /// writes a bundle's parent).
    package init(parsing text: String, underDocuments: Bool = false) throws(Problem) {
        let segments = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard segments.count >= 4, segments[0] == "projects", segments[2] == "databases",
              !segments[1].isEmpty, !segments[3].isEmpty else {
            throw Problem(description: "\"\(text)\" is not a name of the form projects/{project_id}/databases/{database_id}[/documents/{path}]")
        }
        var path = Array(segments.dropFirst(4))
        if path.isEmpty {
            guard !underDocuments else {
                throw Problem(description: "\"\(text)\" is not under \(text)/documents")
            }
        } else {
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
    package var databaseName: String { "projects/\(project)/databases/\(database)" }

    /// Whether the name is a document's: a path of an even number of segments, not the root.
    package var namesDocument: Bool { !path.isEmpty && path.count % 2 == 0 }

    package var description: String { Self.name(of: path, inDatabase: databaseName) }

    /// `databaseName/documents`, then the path's segments: the root for an empty path.
    package static func name(of path: [String], inDatabase databaseName: String) -> String {
        path.isEmpty ? databaseName + "/documents" : databaseName + "/documents/" + path.joined(separator: "/")
    }
}

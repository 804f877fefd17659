import DocumentStore

/// `shelf check`: decodes every document of the known collections with its model, and reads
/// every document of the other top-level folders as raw fields (each must be a readable JSON
/// object), so nothing in the data folder goes unchecked.
public struct DataCheck: Sendable {
    public let checkedDocuments: Int
    public let checkedCollections: Int
    /// The folders checked as raw documents, having no model: their names, sorted.
    public let rawCollections: [String]
    public let problems: [DocumentProblem]
    /// Temporary files killed writers had left beside documents, removed (older than a minute).
    public let removedStrayFiles: [String]

    public static func run(on store: Firestore) async throws -> DataCheck {
        var checked = 0
        var problems: [DocumentProblem] = []
        for collection in KnownCollection.allCases {
            let snapshot = try await store.collection(collection.rawValue).getDocuments()
            checked += snapshot.count
            problems += snapshot.documents.compactMap(collection.problem)
        }
        let known = Set(KnownCollection.allCases.map(\.rawValue))
        let raw = try store.listCollections().map(\.collectionID).filter { !known.contains($0) }
        for name in raw {
            let snapshot = try await store.collection(name).getDocuments()
            checked += snapshot.count
            problems += snapshot.documents.compactMap { document in
                document.readError.map { DocumentProblem(path: document.reference.path, error: $0) }
            }
        }
        return DataCheck(checkedDocuments: checked, checkedCollections: known.count + raw.count,
                         rawCollections: raw, problems: problems, removedStrayFiles: store.strayTemporaryFilesRemoved)
    }

    /// One line per problem, then a summary line.
    public var report: String {
        let withoutModel = rawCollections.isEmpty ? ""
            : " (\(rawCollections.count) without a model, read as raw documents: \(rawCollections.joined(separator: ", ")))"
        let summary = "checked \(checkedDocuments) document\(checkedDocuments == 1 ? "" : "s") in \(checkedCollections) collections\(withoutModel): "
            + (problems.isEmpty ? "all decode" : "\(problems.count) problem\(problems.count == 1 ? "" : "s")")
        let strays = removedStrayFiles.isEmpty ? [] : [
            "removed \(removedStrayFiles.count) temporary file\(removedStrayFiles.count == 1 ? "" : "s") left by writers that were stopped midway (older than a minute; no document lost): "
                + removedStrayFiles.joined(separator: ", "),
        ]
        return (problems.map(\.message) + strays + [summary]).joined(separator: "\n")
    }
}

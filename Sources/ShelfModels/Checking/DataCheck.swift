import DocumentStore

/// `shelf check`: decodes every document of the known collections with its model.
public struct DataCheck: Sendable {
    public let checkedDocuments: Int
    public let checkedCollections: Int
    public let problems: [DocumentProblem]

    public static func run(on store: Firestore) async throws -> DataCheck {
        var checked = 0
        var problems: [DocumentProblem] = []
        for collection in KnownCollection.allCases {
            let snapshot = try await store.collection(collection.rawValue).getDocuments()
            checked += snapshot.count
            problems += snapshot.documents.compactMap(collection.problem)
        }
        return DataCheck(checkedDocuments: checked, checkedCollections: KnownCollection.allCases.count, problems: problems)
    }

    /// One line per problem, then a summary line.
    public var report: String {
        let summary = "checked \(checkedDocuments) document\(checkedDocuments == 1 ? "" : "s") in \(checkedCollections) collections: "
            + (problems.isEmpty ? "all decode" : "\(problems.count) problem\(problems.count == 1 ? "" : "s")")
        return (problems.map(\.message) + [summary]).joined(separator: "\n")
    }
}

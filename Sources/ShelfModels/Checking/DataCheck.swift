import DocumentStore

/// `shelf check`: decodes every document of the known collections with its model, and reads
/// every document of the other collections (other top-level folders, and subcollections at
/// every depth) as raw fields (each must be a readable JSON object), so nothing in the data
/// folder goes unchecked. Only collections that are there are checked and counted.
public struct DataCheck: Sendable {
    public private(set) var checkedDocuments = 0
    public private(set) var checkedCollections = 0
    /// The collections checked as raw documents, having no model: their paths, in the order checked.
    public private(set) var rawCollections: [String] = []
    public private(set) var problems: [DocumentProblem] = []
    /// Collections holding files but no documents (`*.json`), with how many other files.
    public private(set) var withOtherFilesOnly: [(path: String, files: Int)] = []
    /// Temporary files killed writers had left beside documents, removed (older than a minute).
    public private(set) var removedStrayFiles: [String] = []

    /// The known collections in tab order, then the others by name; each followed by its
    /// subcollections.
    public static func run(on store: Firestore) async throws -> DataCheck {
        var check = DataCheck()
        check.removedStrayFiles = store.sweepStrayTemporaryFiles()
        let present = try store.listCollections()
        let known = KnownCollection.allCases.filter { model in present.contains { $0.collectionID == model.rawValue } }
        for model in known { try await check.check(store.collection(model.rawValue), model: model) }
        for collection in present where KnownCollection(rawValue: collection.collectionID) == nil {
            try await check.check(collection, model: nil)
        }
        return check
    }

    private mutating func check(_ collection: CollectionReference, model: KnownCollection?) async throws {
        let snapshot = try await collection.getDocuments()
        checkedCollections += 1
        checkedDocuments += snapshot.count
        if let model {
            problems += snapshot.documents.compactMap(model.problem)
        } else {
            rawCollections.append(collection.path)
            problems += snapshot.documents.compactMap { document in
                document.readError.map { DocumentProblem(path: document.reference.path, error: $0) }
            }
        }
        if snapshot.count == 0 {
            let files = try collection.otherFileCount()
            if files > 0 { withOtherFilesOnly.append((collection.path, files)) }
        }
        for subcollection in try collection.subcollections() { try await check(subcollection, model: nil) }
    }

    /// One line per problem, then a summary line.
    public var report: String {
        let withoutModel = rawCollections.isEmpty ? ""
            : " (\(rawCollections.count) without a model, read as raw documents: \(rawCollections.joined(separator: ", ")))"
        let summary = "checked \(Self.count(checkedDocuments, "document")) in \(Self.count(checkedCollections, "collection"))\(withoutModel): "
            + (problems.isEmpty ? "all decode" : Self.count(problems.count, "problem"))
        let notes = withOtherFilesOnly.map { "\($0.path): no documents, \(Self.count($0.files, "other file")) (only *.json files are documents)" }
        return (problems.map(\.message) + notes + [Self.strayFilesLine(removedStrayFiles)].compactMap { $0 } + [summary]).joined(separator: "\n")
    }

    /// What `check` and `list` say about the stray temporary files they removed; nil for none.
    public static func strayFilesLine(_ removed: [String]) -> String? {
        removed.isEmpty ? nil
            : "removed \(count(removed.count, "temporary file")) left by writers that were stopped midway (older than a minute; no document lost): "
                + removed.joined(separator: ", ")
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}

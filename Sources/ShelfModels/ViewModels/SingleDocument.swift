import DocumentStore

/// Reads one document as `Model` and reports failures the way every screen shows them.
enum SingleDocument {
    static func fetch<Model: Decodable & Sendable>(_ reference: DocumentReference, as type: Model.Type) async -> Result<Model, DocumentProblem> {
        do {
            return .success(try await reference.getDocument(as: Model.self))
        } catch {
            return .failure(DocumentProblem(path: reference.path, error: error))
        }
    }
}

import DocumentStore
import Observation

/// The guide's "Enums" screen: articles and their status, live.
@Observable @MainActor
public final class MappingEnumsViewModel {
    public let live: LiveCollection<Article>
    public private(set) var writeError: String?

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("articles"))
    }

    public var articles: [Article] { live.models }
    public var errorMessage: String? { writeError ?? live.statusMessage }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }

    @discardableResult
    public func addArticle(title: String, status: Article.Status) -> DocumentReference? {
        do {
            let reference = try live.add(Article(title: title, status: status))
            writeError = nil
            return reference
        } catch {
            writeError = DocumentProblem(path: live.collection.path, error: error).message
            return nil
        }
    }
}

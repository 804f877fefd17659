import DocumentStore
import Observation

/// The guide's "Enums" screen: articles and their status, live.
@Observable @MainActor
public final class MappingEnumsViewModel {
    public let live: LiveCollection<Article>

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("articles"))
    }

    public var articles: [Article] { live.models }
    public var writeError: String? { live.writeError }
    public var errorMessage: String? { writeError ?? live.statusMessage }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }

    @discardableResult
    public func addArticle(title: String, status: Article.Status) -> DocumentReference? {
        live.attempt { try live.add(Article(title: title, status: status)) }
    }
}

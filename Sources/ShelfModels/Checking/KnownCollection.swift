import DocumentStore

/// The collections Shelf has models for, in tab order.
public enum KnownCollection: String, CaseIterable, Sendable {
    case books
    case colors
    case programmingLanguages = "programming-languages"
    case locations
    case articles

    public var title: String {
        switch self {
        case .books: return "Books"
        case .colors: return "Colors"
        case .programmingLanguages: return "Languages"
        case .locations: return "Offices"
        case .articles: return "Articles"
        }
    }

    /// Decodes the document with this collection's model; nil when it decodes.
    public func problem(in snapshot: DocumentSnapshot) -> DocumentProblem? {
        do {
            switch self {
            case .books: _ = try snapshot.data(as: ShelfBook.self)
            case .colors: _ = try snapshot.data(as: ColorEntry.self)
            case .programmingLanguages: _ = try snapshot.data(as: ProgrammingLanguage.self)
            case .locations: _ = try snapshot.data(as: Office.self)
            case .articles: _ = try snapshot.data(as: Article.self)
            }
            return nil
        } catch {
            return DocumentProblem(path: snapshot.reference.path, error: error)
        }
    }
}

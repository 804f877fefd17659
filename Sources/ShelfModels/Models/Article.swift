import DocumentStore

/// An article and its review state, stored as the status's raw value.
public struct Article: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var title: String
    public var status: Status

    public enum Status: String, Codable, CaseIterable, Sendable {
        case draft
        case inReview = "in review"
        case approved
        case published
    }

    public init(id: String? = nil, title: String, status: Status) {
        self.id = id
        self.title = title
        self.status = status
    }
}

import DocumentStore
import Foundation

/// A language, stored under `language_name` (the guide's CodingKeys example);
/// `reasonWhyILoveThis` is never stored.
public struct ProgrammingLanguage: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var name: String
    public var year: Date
    public var reasonWhyILoveThis: String = ""

    enum CodingKeys: String, CodingKey {
        case id
        case name = "language_name"
        case year
    }

    public init(id: String? = nil, name: String, year: Date, reasonWhyILoveThis: String = "") {
        self.id = id
        self.name = name
        self.year = year
        self.reasonWhyILoveThis = reasonWhyILoveThis
    }
}

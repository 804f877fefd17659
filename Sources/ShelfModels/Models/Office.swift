import DocumentStore

/// An office and where it is.
public struct Office: Codable, Equatable, Identifiable, Sendable {
    @DocumentID public var id: String?
    public var name: String
    public var location: GeoPoint

    public init(id: String? = nil, name: String, location: GeoPoint) {
        self.id = id
        self.name = name
        self.location = location
    }
}

/// A geographical point, stored as `{"latitude": .., "longitude": ..}`.
public struct GeoPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }

    /// Why a pair of numbers is not a point on Earth, or nil when it is.
    public static func problem(latitude: Double, longitude: Double) -> String? {
        if !(-90...90).contains(latitude) { return "latitude \(latitude) is outside -90...90" }
        if !(-180...180).contains(longitude) { return "longitude \(longitude) is outside -180...180" }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        if let problem = Self.problem(latitude: latitude, longitude: longitude) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a GeoPoint, but \(problem)"))
        }
        self.init(latitude: latitude, longitude: longitude)
    }

    public func encode(to encoder: any Encoder) throws {
        if let problem = Self.problem(latitude: latitude, longitude: longitude) {
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "invalid GeoPoint: \(problem)"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }
}

import DocumentStore
import ShelfModels

/// The cells of the guide's collections that the stored value gives otherwise than `init(_:)`
/// does, as their columns draw them from the model. Not isolated to the main actor: a list
/// sorts and searches by them on every core (`EveryCore`).
extension StoredCell {
    /// "Fiction #ff0000, Classic #00ff00": each tag's title and colour, as the Tags column draws them.
    static func tags(_ value: FirestoreValue) -> StoredCell? {
        guard case .array(let items) = value else { return StoredCell(value) }
        return StoredCell(text: items.map { item in
            let fields = item.mapValue
            let title = fields?["title"].flatMap { StoredCell($0)?.text } ?? ""
            let color = fields?["color"].flatMap { hex($0)?.text } ?? ""
            return "\(title) \(color)"
        }.joined(separator: ", "))
    }

    /// A CSS colour as the model writes it back (`#FFF` is `#ffffff`), or the text as it is.
    static func hex(_ value: FirestoreValue) -> StoredCell? {
        guard case .string(let text) = value else { return StoredCell(value) }
        return StoredCell(text: (try? Color(hex: text))?.hex ?? text)
    }

    /// A year, sorted by the whole date: a timestamp, or RFC 3339 text as a person writes one.
    static func year(_ value: FirestoreValue) -> StoredCell? {
        let timestamp: Timestamp?
        switch value {
        case .timestamp(let stored): timestamp = stored
        case .string(let text): timestamp = Timestamp(rfc3339: text)
        default: timestamp = nil
        }
        guard let timestamp else { return StoredCell(value) }
        return StoredCell(text: String(timestamp.rfc3339.prefix(4)), number: Double(timestamp.seconds) + Double(timestamp.nanoseconds) / 1e9)
    }

    /// A GeoPoint's coordinate, or a map's (plain JSON holds `{"latitude": …, "longitude": …}`).
    static func coordinate(_ value: FirestoreValue, _ name: String) -> StoredCell? {
        let coordinate: Double?
        switch value {
        case .geoPoint(let point): coordinate = name == "latitude" ? point.latitude : point.longitude
        case .map(let fields): coordinate = fields[name]?.numberValue
        default: coordinate = nil
        }
        return coordinate.map { StoredCell(text: "\($0)", number: $0) }
    }
}

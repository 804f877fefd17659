/// How a vector is stored: as Firestore stores it, a map `{"__type__": "__vector__", "value":
/// [numbers]}`, which is also how it travels on Firestore's wire. So the files, PostgreSQL and
/// `shelf serve` carry it as a map, and only reading, writing checks and ordering tell it apart.
extension FirestoreValue {
    static let vectorTypeKey = "__type__"
    static let vectorTypeName = "__vector__"
    static let vectorValuesKey = "value"

    static func vector(_ doubles: [Double]) -> FirestoreValue {
        .map(Fields([vectorTypeKey: .string(vectorTypeName), vectorValuesKey: .array(doubles.map { .double($0) })]))
    }

    /// The vector's numbers when this is a vector: a map of exactly the type tag and an array
    /// of numbers; nil for any other value.
    var vectorElements: [FirestoreValue]? {
        guard case .map(let fields) = self, fields.count == 2,
              case .string(let type)? = fields[Self.vectorTypeKey], type == Self.vectorTypeName,
              case .array(let items)? = fields[Self.vectorValuesKey],
              items.allSatisfy({ $0.numberValue != nil }) else { return nil }
        return items
    }

    /// The vector as `data()` hands it out.
    var vectorValue: VectorValue? {
        vectorElements.map { VectorValue($0.compactMap(\.numberValue)) }
    }
}

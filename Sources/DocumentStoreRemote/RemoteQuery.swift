import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// A store's query as Firestore's `StructuredQuery`, for the server to run: the inverse of
/// the server's `WireQuery`. Every order the results follow is sent (the implied ones too),
/// so cursors line up with them; a query limited to its last documents is sent reversed
/// (orders flipped, cursors swapped) and its results reversed back, as Firebase's SDK does.
struct RemoteQuery {
    /// `parent` of the request: the database's documents, or the document holding the collection.
    let parent: String
    let structured: Google_Firestore_V1_StructuredQuery
    /// The results come back in reverse order (a `limit(toLast:)`).
    let isReversed: Bool

    /// Throws for what Firestore's protocol cannot say (`refusal(of:)`).
    init(_ definition: QueryDefinition, values: WireValues) throws(FirestoreErrorCode) {
        if let refused = Self.refusal(of: definition) { throw refused }
        var query = Google_Firestore_V1_StructuredQuery()
        var from = Google_Firestore_V1_StructuredQuery.CollectionSelector()
        switch definition.source {
        case .collection(let path):
            from.collectionID = path.last
            parent = values.name(of: path.parent)
        case .group(let id):
            from.collectionID = id
            from.allDescendants = true
            parent = values.name(of: ResourcePath(segments: []))
        }
        query.from = [from]
        switch definition.filters.count {
        case 0: break
        case 1: query.where = Self.filter(definition.filters[0], values: values)
        default: query.where = Self.composite(.and, definition.filters, values: values)
        }
        let isReversed = definition.limit != nil && definition.limitKind == .last
        self.isReversed = isReversed
        query.orderBy = definition.orders.map { order in
            var wire = Google_Firestore_V1_StructuredQuery.Order()
            wire.field.fieldPath = order.field.serverFormat
            wire.direction = order.descending != isReversed ? .descending : .ascending
            return wire
        }
        let (start, end) = isReversed ? (definition.end, definition.start) : (definition.start, definition.end)
        if let start { query.startAt = Self.cursor(start, values: values, before: start.inclusive) }
        if let end { query.endAt = Self.cursor(end, values: values, before: !end.inclusive) }
        if let limit = definition.limit { query.limit = .init(Int32(clamping: limit)) }
        if definition.offset > 0 { query.offset = Int32(clamping: definition.offset) }
        structured = query
    }

    /// What Firestore's protocol cannot say: words in a document's text
    /// (`Query.containing(words:)`, ours).
    static func refusal(of definition: QueryDefinition) -> FirestoreErrorCode? {
        guard !definition.words.isEmpty else { return nil }
        return FirestoreErrorCode(.unimplemented, "words in a document's text are matched by a store on a folder or PostgreSQL: Firestore's protocol has no text search")
    }

    /// `before`: the position is just before the values (an inclusive start, an exclusive end).
    private static func cursor(_ bound: Bound, values: WireValues, before: Bool) -> Google_Firestore_V1_Cursor {
        var cursor = Google_Firestore_V1_Cursor()
        cursor.values = bound.position.map { values.wire($0) }
        cursor.before = before
        return cursor
    }

    private static func composite(_ op: Google_Firestore_V1_StructuredQuery.CompositeFilter.Operator, _ filters: [QueryFilter],
                                  values: WireValues) -> Google_Firestore_V1_StructuredQuery.Filter {
        var composite = Google_Firestore_V1_StructuredQuery.CompositeFilter()
        composite.op = op
        composite.filters = filters.map { filter($0, values: values) }
        var wire = Google_Firestore_V1_StructuredQuery.Filter()
        wire.compositeFilter = composite
        return wire
    }

    private static func filter(_ filter: QueryFilter, values: WireValues) -> Google_Firestore_V1_StructuredQuery.Filter {
        switch filter {
        case .and(let filters): return composite(.and, filters, values: values)
        case .or(let filters): return composite(.or, filters, values: values)
        case .field(let field): return Self.field(field, values: values)
        }
    }

    /// A field filter; equality with null or NaN as the unary filter Firestore asks for them.
    private static func field(_ filter: FieldFilter, values: WireValues) -> Google_Firestore_V1_StructuredQuery.Filter {
        var wire = Google_Firestore_V1_StructuredQuery.Filter()
        var reference = Google_Firestore_V1_StructuredQuery.FieldReference()
        reference.fieldPath = filter.field.serverFormat
        if let unary = UnaryFilterOperator(filter.op, filter.value) {
            var unaryFilter = Google_Firestore_V1_StructuredQuery.UnaryFilter()
            unaryFilter.op = .init(rawValue: unary.rawValue) ?? .unspecified
            unaryFilter.field = reference
            wire.unaryFilter = unaryFilter
            return wire
        }
        var fieldFilter = Google_Firestore_V1_StructuredQuery.FieldFilter()
        fieldFilter.field = reference
        fieldFilter.op = .init(rawValue: filter.op.protocolNumber) ?? .unspecified
        fieldFilter.value = values.wire(filter.value)
        wire.fieldFilter = fieldFilter
        return wire
    }
}

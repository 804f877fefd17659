import DocumentStore
import FirestoreProtocol
import Foundation

/// Firestore's `StructuredQuery` and the store's queries, both ways, in one place: a client
/// sends its queries so (DocumentStoreRemote), the server reads what clients send
/// (FirestoreServer's `WireQuery`, which adds what the store's queries do not do themselves).
/// Each operator, direction and cursor is mapped here once, so the two cannot disagree.
package struct StructuredQueryCodec {
    /// `parent` of the request: the database's documents, or the document holding the collection.
    package let parent: String
    package let query: Google_Firestore_V1_StructuredQuery
    /// The results come back in reverse order (a `limit(toLast:)`).
    package let isReversed: Bool

    /// The query as a client sends it. Every order the results follow is sent (the implied
    /// ones too), so cursors line up with them; a query limited to its last documents is sent
    /// reversed (orders flipped, cursors swapped), for its results to be reversed back, as
    /// Firebase's SDK does. Words in a document's text (ours) have no filter here: the caller
    /// refuses such a query first.
    package init(_ definition: QueryDefinition, values: WireValues) {
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
        self.query = query
    }

    // MARK: Encoding

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

    // MARK: Decoding

    /// `wire`'s filters, orders and cursors on `query` (its collection or group; its offset,
    /// limit, selector and projection are the caller's). The query runs the filters as
    /// Firestore's backend reads them (`withoutNullOrNaN`) and is judged on them as sent.
    package static func applying(_ wire: Google_Firestore_V1_StructuredQuery, to query: Query, values: WireValues) throws(WireError) -> Query {
        var query = query
        var sent: Query?
        if wire.hasWhere {
            sent = query.whereFilter(try Self.filter(wire.where, values: values, asSent: true))
            query = query.whereFilter(try Self.filter(wire.where, values: values, asSent: false))
        }
        for (index, order) in wire.orderBy.enumerated() {
            let field = try FieldPath.parse(order.field.fieldPath, field: "order_by[\(index)].field")
            switch order.direction {
            case .ascending, .unspecified: query = query.order(by: field, descending: false)
            case .descending: query = query.order(by: field, descending: true)
            case .UNRECOGNIZED(let n): throw .invalidArgument("order_by[\(index)].direction: \(n) is not a direction (1 ascending, 2 descending)")
            }
        }
        if wire.hasStartAt {
            let position = try Self.position(wire.startAt, values: values, field: "start_at")
            query = wire.startAt.before ? query.start(at: position) : query.start(after: position)
        }
        if wire.hasEndAt {
            let position = try Self.position(wire.endAt, values: values, field: "end_at")
            query = wire.endAt.before ? query.end(before: position) : query.end(at: position)
        }
        if let sent { query = query.judgingFilters(as: sent) }
        return query
    }

    package static func offsetAndLimit(_ wire: Google_Firestore_V1_StructuredQuery) throws(WireError) -> (offset: Int, limit: Int?) {
        guard wire.offset >= 0 else { throw .invalidArgument("offset: must be 0 or more, got \(wire.offset)") }
        guard wire.hasLimit else { return (Int(wire.offset), nil) }
        guard wire.limit.value >= 0 else { throw .invalidArgument("limit: must be 0 or more, got \(wire.limit.value)") }
        return (Int(wire.offset), Int(wire.limit.value))
    }

    package static func projection(_ wire: Google_Firestore_V1_StructuredQuery) throws(WireError) -> [FieldPath]? {
        guard wire.hasSelect else { return nil }
        return try wire.select.fields.enumerated().map { index, field throws(WireError) in
            try FieldPath.parse(field.fieldPath, field: "select.fields[\(index)]")
        }
    }

    /// A cursor's values as the store's cursors take them (a reference as a `DocumentReference`).
    private static func position(_ cursor: Google_Firestore_V1_Cursor, values: WireValues, field: String) throws(WireError) -> [Any] {
        try cursor.values.enumerated().map { index, wire throws(WireError) -> Any in
            let value = try values.operand(wire, field: "\(field).values[\(index)]")
            if case .reference(let reference) = value { return reference }
            return value
        }
    }

    /// Firestore's backend (Google's emulator, measured) takes a null or NaN operand of a field
    /// filter as equal to nothing: the filter matches no document, `!= NaN` every value but
    /// null; such items of an `in`, `array-contains-any` or `not-in` list are dropped, and a
    /// `not-in` list holding null matches nothing, yet when it holds other values its field is
    /// still an inequality's (ordered, counted; `alsoNothing`). (Firebase's SDKs send `== null`
    /// and `== NaN` as unary filters, which match them.) Nothing is matched as `== [[]]`: no
    /// document holds an array in an array.
    private static func withoutNullOrNaN(_ op: FilterOperator, _ value: FirestoreValue) -> (FilterOperator, Any, alsoNothing: Bool) {
        func void(_ value: FirestoreValue) -> Bool {
            if case .null = value { return true }
            if case .double(let double) = value { return double.isNaN }
            return false
        }
        let (nothingOp, nothingValue) = Self.nothing
        let nothing: (FilterOperator, Any, alsoNothing: Bool) = (nothingOp, nothingValue, false)
        switch op {
        case .in, .arrayContainsAny, .notIn:
            guard case .array(let items) = value, items.contains(where: void) else { return (op, value, false) }
            if op == .notIn, items.contains(.null) {
                let others = items.filter { $0 != .null }
                return others.isEmpty ? nothing : (op, FirestoreValue.array(others), true)
            }
            let kept = items.filter { !void($0) }
            if !kept.isEmpty { return (op, FirestoreValue.array(kept), false) }
            return op == .notIn ? (.notEqual, NSNull(), false) : nothing
        case .notEqual:
            guard void(value) else { return (op, value, false) }
            return value == .null ? nothing : (.notEqual, NSNull(), false)
        default:
            return void(value) ? nothing : (op, value, false)
        }
    }

    /// A filter no document matches.
    private static let nothing: (FilterOperator, FirestoreValue) = (.equal, .array([.array([])]))

    /// The filter to run, or `asSent`, as the client sent it, for the backend's rules to judge.
    private static func filter(_ wire: Google_Firestore_V1_StructuredQuery.Filter, values: WireValues, asSent: Bool) throws(WireError) -> Filter {
        switch wire.filterType {
        case nil:
            throw .invalidArgument("where: a filter must be a field, unary or composite filter")
        case .compositeFilter(let composite):
            let filters = try composite.filters.map { filter throws(WireError) in try Self.filter(filter, values: values, asSent: asSent) }
            if filters.isEmpty && composite.op == .or {
                throw .invalidArgument("Composite filter must have at least one sub-filter.")
            }
            switch composite.op {
            case .and: return Filter.andFilter(filters)
            case .or: return Filter.orFilter(filters)
            case .unspecified, .UNRECOGNIZED: throw .invalidArgument("where.composite_filter.op: must be AND or OR")
            }
        case .fieldFilter(let fieldFilter):
            let path = try FieldPath.parse(fieldFilter.field.fieldPath, field: "where.field_filter.field")
            guard var op = FilterOperator(protocolNumber: fieldFilter.op.rawValue) else {
                throw .invalidArgument("where.field_filter.op: not an operator Firestore knows")
            }
            var value: Any
            if [.in, .notIn, .arrayContainsAny].contains(op), case .arrayValue(let array)? = fieldFilter.value.valueType {
                // The operand's items are values of their own: an array among them is compared whole.
                value = FirestoreValue.array(try array.values.enumerated().map { index, item throws(WireError) in
                    try values.operand(item, field: "where.field_filter.value[\(index)]")
                })
            } else {
                value = try values.operand(fieldFilter.value, field: "where.field_filter.value")
            }
            var alsoNothing = false
            if !asSent, path != FieldPath.documentID(), let operand = value as? FirestoreValue {
                (op, value, alsoNothing) = Self.withoutNullOrNaN(op, operand)
            }
            if case .array(let items)? = value as? FirestoreValue, [.in, .notIn, .arrayContainsAny].contains(op) {
                value = items.map { item -> Any in if case .reference(let reference) = item { return reference } else { return item } }
            } else if case .reference(let reference)? = value as? FirestoreValue, path == FieldPath.documentID() {
                value = reference
            }
            let filter = Filter.make(path, op, value)
            return alsoNothing ? Filter.andFilter([filter, Filter.make(path, Self.nothing.0, Self.nothing.1)]) : filter
        case .unaryFilter(let unary):
            guard case .field(let reference)? = unary.operandType else {
                throw .invalidArgument("where.unary_filter.field: a unary filter needs a field")
            }
            let path = try FieldPath.parse(reference.fieldPath, field: "where.unary_filter.field")
            guard let op = UnaryFilterOperator(rawValue: unary.op.rawValue) else {
                throw .invalidArgument("where.unary_filter.op: not an operator Firestore knows")
            }
            return Filter.make(path, op.fieldFilter.op, op.fieldFilter.value)
        }
    }
}

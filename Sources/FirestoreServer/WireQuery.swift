import DocumentStore
import FirestoreProtocol
import Foundation

/// A `StructuredQuery` as the store's `Query`, and what the store's queries do not do
/// themselves (an offset, a projection, a collection group under a document), done here on
/// their results. Filters, orders and cursors go to the store, which checks them as Firestore's
/// SDK does and words what is wrong.
struct WireQuery {
    let query: Query
    /// Results to skip before the first one returned.
    let offset: Int
    let limit: Int?
    /// Only these fields in the documents returned (nil: all).
    let projection: [FieldPath]?
    /// A collection group under a document: only results whose path starts with this.
    let under: String?

    init(_ wire: Google_Firestore_V1_StructuredQuery, parent: String, in database: ServedDatabase) throws(WireError) {
        try WireError.refuseUnknownFields(of: wire, in: "structured_query", known: [9: "find_nearest (vector search)"])
        let parentPath = try database.path(of: parent, field: "parent")
        guard parentPath.count % 2 == 0 else {
            throw .invalidArgument("parent: \"\(parent)\" is a collection; a query's parent is the database's documents or a document")
        }
        guard wire.from.count == 1, let from = wire.from.first else {
            throw .invalidArgument("from: a query reads exactly one collection selector, this one has \(wire.from.count)")
        }
        guard !from.collectionID.isEmpty else {
            throw .unimplemented("from: a query over every collection (an empty collection_id) is not supported by Shelf yet")
        }
        let store = database.store
        var query: Query
        if from.allDescendants {
            query = store.collectionGroup(from.collectionID)
            under = parentPath.isEmpty ? nil : parentPath.joined(separator: "/") + "/"
        } else {
            query = store.collection((parentPath + [from.collectionID]).joined(separator: "/"))
            under = nil
        }
        let values = database.values
        if wire.hasWhere {
            query = query.whereFilter(try Self.filter(wire.where, values: values))
        }
        for (index, order) in wire.orderBy.enumerated() {
            let field = try FieldPathText.parse(order.field.fieldPath, field: "order_by[\(index)].field")
            switch order.direction {
            case .ascending, .unspecified: query = query.order(by: field, descending: false)
            case .descending: query = query.order(by: field, descending: true)
            case .UNRECOGNIZED(let n): throw .invalidArgument("order_by[\(index)].direction: \(n) is not a direction (1 ascending, 2 descending)")
            }
        }
        if wire.hasStartAt {
            let position = try wire.startAt.values.enumerated().map { index, value throws(WireError) in
                try Self.cursorValue(value, values: values, field: "start_at.values[\(index)]")
            }
            query = wire.startAt.before ? query.start(at: position) : query.start(after: position)
        }
        if wire.hasEndAt {
            let position = try wire.endAt.values.enumerated().map { index, value throws(WireError) in
                try Self.cursorValue(value, values: values, field: "end_at.values[\(index)]")
            }
            query = wire.endAt.before ? query.end(before: position) : query.end(at: position)
        }
        guard wire.offset >= 0 else { throw .invalidArgument("offset: must be 0 or more, got \(wire.offset)") }
        offset = Int(wire.offset)
        if wire.hasLimit {
            guard wire.limit.value >= 0 else { throw .invalidArgument("limit: must be 0 or more, got \(wire.limit.value)") }
            limit = Int(wire.limit.value)
        } else {
            limit = nil
        }
        // The store applies the limit only when nothing is taken out after it.
        if let limit, under == nil, limit > 0 { query = query.limit(to: limit + offset) }
        if wire.hasSelect {
            projection = try wire.select.fields.enumerated().map { index, field throws(WireError) in
                try FieldPathText.parse(field.fieldPath, field: "select.fields[\(index)]")
            }
        } else {
            projection = nil
        }
        self.query = query
    }

    /// The query's documents as Firestore returns them: offset, limit and the parent applied.
    func results() async throws -> [QueryDocumentSnapshot] {
        if limit == 0 { return [] }
        var documents = try await query.getDocuments().documents
        if let under { documents = documents.filter { $0.reference.path.hasPrefix(under) } }
        documents = Array(documents.dropFirst(offset))
        if let limit { documents = Array(documents.prefix(limit)) }
        return documents
    }

    /// A reference in a cursor is a document, as the store's cursors take it.
    private static func cursorValue(_ wire: Google_Firestore_V1_Value, values: WireValues, field: String) throws(WireError) -> Any {
        let value = try values.value(wire, field: field)
        if case .reference(let reference) = value { return reference }
        return value
    }

    private static func filter(_ wire: Google_Firestore_V1_StructuredQuery.Filter, values: WireValues) throws(WireError) -> Filter {
        switch wire.filterType {
        case nil:
            throw .invalidArgument("where: a filter must be a field, unary or composite filter")
        case .compositeFilter(let composite):
            let filters = try composite.filters.map { filter throws(WireError) in try Self.filter(filter, values: values) }
            switch composite.op {
            case .and: return Filter.andFilter(filters)
            case .or: return Filter.orFilter(filters)
            case .unspecified, .UNRECOGNIZED: throw .invalidArgument("where.composite_filter.op: must be AND or OR")
            }
        case .fieldFilter(let fieldFilter):
            let path = try FieldPathText.parse(fieldFilter.field.fieldPath, field: "where.field_filter.field")
            let op: FilterOperator
            switch fieldFilter.op {
            case .lessThan: op = .lessThan
            case .lessThanOrEqual: op = .lessThanOrEqual
            case .greaterThan: op = .greaterThan
            case .greaterThanOrEqual: op = .greaterThanOrEqual
            case .equal: op = .equal
            case .notEqual: op = .notEqual
            case .arrayContains: op = .arrayContains
            case .in: op = .in
            case .arrayContainsAny: op = .arrayContainsAny
            case .notIn: op = .notIn
            case .unspecified, .UNRECOGNIZED: throw .invalidArgument("where.field_filter.op: not an operator Firestore knows")
            }
            var value: Any = try values.value(fieldFilter.value, field: "where.field_filter.value")
            if case .array(let items)? = value as? FirestoreValue, [.in, .notIn, .arrayContainsAny].contains(op) {
                value = items.map { item -> Any in if case .reference(let reference) = item { return reference } else { return item } }
            } else if case .reference(let reference)? = value as? FirestoreValue, path == FieldPath.documentID() {
                value = reference
            }
            return Filter.make(path, op, value)
        case .unaryFilter(let unary):
            guard case .field(let reference)? = unary.operandType else {
                throw .invalidArgument("where.unary_filter.field: a unary filter needs a field")
            }
            let path = try FieldPathText.parse(reference.fieldPath, field: "where.unary_filter.field")
            switch unary.op {
            case .isNan: return Filter.make(path, .equal, Double.nan)
            case .isNull: return Filter.make(path, .equal, NSNull())
            case .isNotNan: return Filter.make(path, .notEqual, Double.nan)
            case .isNotNull: return Filter.make(path, .notEqual, NSNull())
            case .unspecified, .UNRECOGNIZED: throw .invalidArgument("where.unary_filter.op: not an operator Firestore knows")
            }
        }
    }
}

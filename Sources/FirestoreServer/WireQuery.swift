import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// A `StructuredQuery` as the store's `Query`, and what the store's queries do not do
/// themselves (a projection, a collection group under a document, and then its offset and
/// limit), done here on their results. Filters, orders, cursors, the offset and the limit
/// otherwise go to the store, which checks the query as Firestore's backend does, in its words
/// (`Query.checkedAsTheBackendOnly`): a client's SDK has made its own checks already.
struct WireQuery {
    /// The store's query; nil for a query over every collection (`descendants`).
    let storeQuery: Query?
    /// The same without the offset and the limit, for a listener (the store's take no offset).
    private let unwindowedQuery: Query?
    /// A query over every collection under the parent (an empty collection_id with
    /// all_descendants, as `recursive_delete` sends), which the store's queries do not do.
    let descendants: DescendantsQuery?
    /// Results to skip before the first one returned.
    let offset: Int
    let limit: Int?
    /// Only these fields in the documents returned (nil: all).
    let projection: [FieldPath]?
    /// A collection group under a document: only results whose path starts with this.
    let under: String?
    /// What a transaction that runs the query locks against new writes: its collection, its
    /// collection group, or every collection (`TransactionLocks.Key.group("")`).
    let lockKey: TransactionLocks.Key

    init(_ wire: Google_Firestore_V1_StructuredQuery, parent: String, in database: ServedDatabase) throws(WireError) {
        try WireError.refuseUnknownFields(of: wire, in: "structured_query", known: [9: "find_nearest (vector search)"])
        let parentPath = try database.path(of: parent, field: "parent")
        guard parentPath.count % 2 == 0 else {
            throw .invalidArgument("parent: \"\(parent)\" is a collection; a query's parent is the database's documents or a document")
        }
        guard wire.from.count == 1, let from = wire.from.first else {
            throw .invalidArgument("from: a query reads exactly one collection selector, this one has \(wire.from.count)")
        }
        let values = database.values
        guard !from.collectionID.isEmpty else {
            guard from.allDescendants else {
                throw .invalidArgument("from.collection_id: empty, which is allowed only with all_descendants (every collection under the parent)")
            }
            descendants = try DescendantsQuery(wire, parent: parentPath, in: database)
            lockKey = .group("")
            storeQuery = nil
            unwindowedQuery = nil
            under = nil
            projection = try Self.projection(wire)
            (offset, limit) = try Self.offsetAndLimit(wire)
            return
        }
        descendants = nil
        let store = database.store
        var query: Query
        if from.allDescendants {
            query = store.collectionGroup(from.collectionID).checkedAsTheBackendOnly
            under = parentPath.isEmpty ? nil : parentPath.joined(separator: "/") + "/"
            lockKey = .group(from.collectionID)
        } else {
            query = store.collection((parentPath + [from.collectionID]).joined(separator: "/")).checkedAsTheBackendOnly
            under = nil
            lockKey = .collection((parentPath + [from.collectionID]).joined(separator: "/"))
        }
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
        unwindowedQuery = query
        (offset, limit) = try Self.offsetAndLimit(wire)
        // The store skips and limits only when nothing is taken out after it.
        if under == nil {
            if offset > 0 { query = query.offset(offset) }
            if let limit, limit > 0 { query = query.limit(to: limit) }
        }
        projection = try Self.projection(wire)
        storeQuery = query
    }

    /// The store's query, for what takes one (aggregations, listeners); `use` says what, for
    /// the message when there is none.
    func query(for use: String) throws(WireError) -> Query {
        guard let storeQuery else {
            throw .unimplemented("from: \(use) a query over every collection (an empty collection_id) is not supported by Shelf yet")
        }
        return storeQuery
    }

    /// What a listener listens to, and the window of each of its snapshots that the client is
    /// sent (Google's emulator serves a listener with an offset; the store's listeners take
    /// none): the skipped documents stay in the store's results, its limit widened by as many.
    func listened() throws(WireError) -> (query: Query, window: ListenWindow?) {
        guard offset > 0, under == nil, let unwindowedQuery else { return (try query(for: "listening to"), nil) }
        let window = ListenWindow(skipping: offset, keeping: limit)
        guard let limit, limit > 0 else { return (unwindowedQuery, window) }
        return (unwindowedQuery.limit(to: offset + limit), window)
    }

    /// The query's documents as Firestore returns them: offset, limit and the parent applied.
    func results() async throws -> [DocumentSnapshot] {
        if limit == 0 {
            // Nothing to read, but a query Firestore refuses is refused all the same.
            try storeQuery?.checkRunnable()
            return []
        }
        var documents: [DocumentSnapshot]
        if let descendants {
            documents = try await descendants.documents()
        } else {
            documents = try await query(for: "running").getDocuments().documents
        }
        // The store skipped and limited, unless something is taken out after it.
        guard descendants != nil || under != nil else { return documents }
        if let under { documents = documents.filter { $0.reference.path.hasPrefix(under) } }
        documents = Array(documents.dropFirst(offset))
        if let limit { documents = Array(documents.prefix(limit)) }
        return documents
    }

    private static func offsetAndLimit(_ wire: Google_Firestore_V1_StructuredQuery) throws(WireError) -> (offset: Int, limit: Int?) {
        guard wire.offset >= 0 else { throw .invalidArgument("offset: must be 0 or more, got \(wire.offset)") }
        guard wire.hasLimit else { return (Int(wire.offset), nil) }
        guard wire.limit.value >= 0 else { throw .invalidArgument("limit: must be 0 or more, got \(wire.limit.value)") }
        return (Int(wire.offset), Int(wire.limit.value))
    }

    private static func projection(_ wire: Google_Firestore_V1_StructuredQuery) throws(WireError) -> [FieldPath]? {
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

/// The part of a listened query's results that its client sees: those after the first
/// `skipping`, at most `keeping` of them.
struct ListenWindow: Sendable {
    let skipping: Int
    let keeping: Int?

    func apply(_ documents: [QueryDocumentSnapshot]) -> ArraySlice<QueryDocumentSnapshot> {
        documents.dropFirst(skipping).prefix(keeping ?? documents.count)
    }
}

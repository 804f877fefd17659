/// A page of one collection that a database server can read in the query's order and cut to
/// the query's limit itself: made only for the queries whose whole filter the server applies
/// exactly (`ServerPrefilter.isExact`), ordered by the document id alone, or by one field and
/// then the id in the same direction, with cursors inside the exactly ordered values.
///
/// The server orders a field's values by (`ServerOrderRank`, key, path). That order is
/// Firestore's for every value except the "loose" ranks (numbers of 2^53 or more in size, and
/// every type after numbers), so the page is exact unless the server's `limit` rows include a
/// loose value (or a document the core cannot read): `ServerBackend` then reads the query the
/// slow way. The evaluator still runs over the page; the server only leaves out rows it would.
package struct ServerPage: Sendable, Equatable {
    /// The collection's path ("books").
    package var collection: String
    /// Fields the documents contain (`jsonb @>`), as JSON text.
    package var containing: String?
    /// The ordered field's segments; nil when ordered by the id alone.
    package var field: [String]?
    /// The query's direction (of every order).
    package var descending: Bool
    /// True for `limit(toLast:)`: the server reads from the other end.
    package var fromEnd: Bool
    package var limit: Int
    /// Range filters on the ordered field, all ANDed.
    package var ranges: [ServerRange]
    /// Rows at or after (`start`) and at or before (`end`) these, in the query's order.
    package var start: ServerCursor?
    package var end: ServerCursor?

    /// The page for `definition`, or nil when the server cannot order or cut it exactly.
    init?(_ definition: QueryDefinition) {
        guard case .collection(let path) = definition.source, let limit = definition.limit else { return nil }
        let orders = definition.orders
        guard let last = orders.last, last.field.isDocumentID, orders.count <= 2,
              orders.allSatisfy({ $0.descending == last.descending }) else { return nil }
        var field: [String]?
        // Range filters on the ordered field, against a number of an exact rank, are the
        // server's; every other filter must be an exact equality.
        var rest = definition
        var ranges: [ServerRange] = []
        if orders.count == 2 {
            let segments = orders[0].field.segments
            guard !segments.contains(where: { $0.hasPrefix("$") || $0.contains("\0") }) else { return nil }
            field = segments
            rest.filters = definition.filters.filter { filter in
                guard case .field(let filter) = filter, filter.field == orders[0].field,
                      let range = ServerRange(filter.op, filter.value) else { return true }
                ranges.append(range)
                return false
            }
        }
        guard ServerPrefilter.isExact(rest) else { return nil }
        collection = path.description
        containing = ServerPrefilter.containment(rest).map(DocumentText.text)
        self.ranges = ranges
        self.field = field
        descending = last.descending
        fromEnd = definition.limitKind == .last
        self.limit = limit
        start = nil
        end = nil
        if let bound = definition.start {
            guard let cursor = ServerCursor(bound, byField: field != nil, in: path) else { return nil }
            start = cursor
        }
        if let bound = definition.end {
            guard let cursor = ServerCursor(bound, byField: field != nil, in: path) else { return nil }
            end = cursor
        }
    }

    /// True when the server's rows are the page's exactly: fewer than the limit (all there
    /// are), or none with a loose value or unreadable.
    func isExact(_ rows: [QueryDocumentSnapshot]) -> Bool {
        guard rows.count >= limit else { return true }
        return rows.allSatisfy { row in
            guard row.stored.fields != nil else { return false }
            guard let field else { return true }
            return ServerOrderRank(row.stored.fields?.value(at: field)).isExact
        }
    }
}

/// A range filter on a page's ordered field against a number of the exact rank 5: Firestore
/// matches the numbers (ranks 3 to 7: not NaN) on that side of it, which (rank, key) compared
/// with (5, key) tells exactly.
package struct ServerRange: Sendable, Equatable {
    /// "<", "<=", ">" or ">=".
    package var op: String
    /// The number, a decimal.
    package var key: String

    init?(_ op: FilterOperator, _ value: FirestoreValue) {
        let rank = ServerOrderRank(value)
        guard rank.rawValue == 5 else { return nil }
        switch op {
        case .lessThan: self.op = "<"
        case .lessThanOrEqual: self.op = "<="
        case .greaterThan: self.op = ">"
        case .greaterThanOrEqual: self.op = ">="
        default: return nil
        }
        key = rank.key
    }
}

/// A cursor of a `ServerPage`: the ordered field's rank and key (when ordered by a field),
/// the document's path (when the cursor gives the id), and whether rows at it are included.
package struct ServerCursor: Sendable, Equatable {
    package var rank: Int?
    /// A decimal number, for numbers and booleans; "0" otherwise.
    package var key: String?
    package var path: String?
    package var inclusive: Bool

    init?(_ bound: Bound, byField: Bool, in collection: ResourcePath) {
        var values = bound.position[...]
        if byField {
            guard let value = values.popFirst() else { return nil }
            let rank = ServerOrderRank(value)
            guard rank.isExact else { return nil }
            self.rank = rank.rawValue
            key = rank.key
        }
        if let id = values.popFirst() {
            guard case .reference(let reference) = id, reference.resourcePath.parent == collection else { return nil }
            path = reference.resourcePath.description
        }
        guard values.isEmpty, rank != nil || path != nil else { return nil }
        inclusive = bound.inclusive
    }
}

/// Where a value falls in the server's order of a field (the SQL functions `shelf_order_rank`
/// and `shelf_order_key` of PostgresSchema's migration 3 compute the same): Firestore's order
/// of types, with numbers split so that within an exact rank the decimal key orders exactly
/// as Firestore (doubles below 2^53 in size are written exactly enough: no integer lies
/// between one and its shortest text).
struct ServerOrderRank {
    let rawValue: Int
    /// A decimal for numbers and booleans, ordering them within their rank.
    let key: String

    static let loose: Set<Int> = [4, 6, 8]
    static let largeNumber = 9_007_199_254_740_992.0  // 2^53

    init(_ value: FirestoreValue?) {
        switch value {
        case .null?: (rawValue, key) = (0, "0")
        case .boolean(let b)?: (rawValue, key) = (1, b ? "1" : "0")
        case .double(let d)? where d.isNaN: (rawValue, key) = (2, "0")
        case .double(let d)? where d == -.infinity: (rawValue, key) = (3, "0")
        case .double(let d)? where d == .infinity: (rawValue, key) = (7, "0")
        case .double(let d)?:
            let text = d == 0 ? "0" : DocumentText.positional(FirestoreValue.text(of: d))
            (rawValue, key) = (Self.numberRank(d), text)
        case .integer(let i)?: (rawValue, key) = (Self.numberRank(Double(i)), String(i))
        default: (rawValue, key) = (8, "0")
        }
    }

    /// Exact ordering: not a large number and not a type after numbers.
    var isExact: Bool { !Self.loose.contains(rawValue) }

    private static func numberRank(_ value: Double) -> Int {
        value <= -largeNumber ? 4 : (value >= largeNumber ? 6 : 5)
    }
}

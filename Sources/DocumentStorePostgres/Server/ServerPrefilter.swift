import DocumentStore
/// The part of a query a database server can apply by itself: conditions every matching
/// document meets (`ServerCondition`), one or two for each filter and each field the query
/// orders by. They only narrow: the rows they let through are still evaluated by
/// `QueryEvaluator`, so each needs to be exact only in never leaving out a match; the query is
/// `isExact` when together they are its whole filter, and then the server may cut, count or
/// sum its rows itself.
///
/// Values are matched by containment (`jsonb @>`, served by an index) only where `jsonb`
/// equality is Firestore's: strings (without NUL), booleans, null, and non-zero numbers below
/// 2^53 in size (`jsonb` finds 1.0 for 1 as Firestore does, but compares a double beyond 2^53
/// by its shortest text, not its value; -0.0 is stored tagged). Zero, and ranges on numbers
/// below 2^53, are compared by rank and key (`ServerRange`); other values only need their
/// field there (a number, for a range). An `or` is an OR of its branches'; a filter on the
/// id, a condition on the path. Fields with a segment starting with "$" are left to the
/// evaluator.
enum ServerPrefilter {
    /// The conditions, and whether they are the query's whole filter exactly.
    static func conditions(_ definition: QueryDefinition) -> (conditions: [ServerCondition], isExact: Bool) {
        var (conditions, isExact) = conditions(of: .and(definition.filters))
        // Implicit orders too: an inequality inside an `or` still leaves out documents without
        // its field. A filter at the top needs its field anyway.
        let filtered = Set(definition.filters.compactMap { filter -> FieldPath? in
            if case .field(let filter) = filter { return filter.field }
            return nil
        })
        for order in definition.orders where !order.field.isDocumentID && !filtered.contains(order.field) {
            if let field = storedField(order.field) { conditions.append(.present(field)) } else { isExact = false }
        }
        // A server joins a document's strings by a newline and may escape the first control
        // characters: a word holding one is left to the evaluator.
        if definition.words.contains(where: { $0.unicodeScalars.contains { $0.value < 0x20 } }) {
            isExact = false
        } else if !definition.words.isEmpty {
            conditions.append(.words(definition.words))
        }
        return (conditions, isExact)
    }

    private static func conditions(of filter: QueryFilter) -> ([ServerCondition], Bool) {
        switch filter {
        case .field(let filter):
            if filter.field.isDocumentID { return pathNarrowing(filter) }
            guard let field = storedField(filter.field) else { return ([], false) }
            return narrowing(filter, field)
        case .and(let filters):
            var conditions: [ServerCondition] = [], isExact = true
            for filter in filters {
                let (narrowing, exact) = Self.conditions(of: filter)
                conditions += narrowing
                isExact = isExact && exact
            }
            return (conditions, isExact)
        case .or(let filters):
            var branches: [[ServerCondition]] = [], isExact = true
            for filter in filters {
                let (narrowing, exact) = Self.conditions(of: filter)
                // A branch the server cannot narrow lets every document through the `or`.
                guard !narrowing.isEmpty else { return ([], false) }
                branches.append(narrowing)
                isExact = isExact && exact
            }
            return branches.isEmpty ? ([], false) : ([.anyOf(branches)], isExact)
        }
    }

    static func isExact(_ definition: QueryDefinition) -> Bool {
        conditions(definition).isExact
    }

    /// The segments of a field the server can find, or nil.
    static func storedField(_ field: FieldPath) -> [String]? {
        guard !field.isDocumentID, !field.segments.contains(where: { $0.hasPrefix("$") || $0.contains("\0") }) else { return nil }
        return field.segments
    }

    private static func narrowing(_ filter: FieldFilter, _ field: [String]) -> ([ServerCondition], Bool) {
        let value = filter.value
        let values: [FirestoreValue]
        if case .array(let items) = value { values = items } else { values = [] }
        switch filter.op {
        case .equal:
            if let json = contained(value, at: field, allowingNull: true) { return ([.containsAny([json])], true) }
            if let range = ServerRange(.equal, value) { return ([.range(field, range)], true) }
            return ([.present(field)], false)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            switch value {
            case .integer, .double:
                if let range = ServerRange(filter.op, value) { return ([.range(field, range)], true) }
                return ([.number(field)], false)
            case .string(let text) where !text.contains("\0"):
                return ([.string(field, op: ServerRange.sql(filter.op)!, text: text)], true)
            default:
                return ([.present(field)], false)
            }
        case .in, .arrayContainsAny:
            // Null and NaN are members of nothing; zero is in an `in` by rank and key.
            var jsons: [String] = [], zeros: [ServerRange] = []
            for member in values where !member.isNull && !member.isNaN {
                if let json = contained(member, at: field, asMember: filter.op == .arrayContainsAny) {
                    jsons.append(json)
                } else if filter.op == .in, let zero = ServerRange(.equal, member) {
                    zeros.append(zero)
                } else {
                    return ([.present(field)], false)
                }
            }
            if zeros.isEmpty { return ([.containsAny(jsons)], true) }
            return ([.anyOf([[.containsAny(jsons)]] + zeros.map { [.range(field, $0)] })], true)
        case .arrayContains:
            guard !value.isNull, !value.isNaN else { return ([.containsAny([])], true) }
            guard let json = contained(value, at: field, asMember: true) else { return ([.present(field)], false) }
            return ([.containsAny([json])], true)
        case .notEqual, .notIn:
            let unwanted = filter.op == .notIn ? values : [value]
            let jsons = unwanted.compactMap { contained($0, at: field) }
            guard !jsons.isEmpty else { return ([.notNull(field)], false) }
            // A null among the values of `notIn` matches nothing: the evaluator says so.
            return ([.notNull(field), .containsNone(jsons)], jsons.count == unwanted.count)
        }
    }

    /// A filter on the id: on the document's path, which every document has (exact).
    private static func pathNarrowing(_ filter: FieldFilter) -> ([ServerCondition], Bool) {
        func path(_ value: FirestoreValue) -> String? {
            if case .reference(let reference) = value { return reference.resourcePath.description }
            return nil
        }
        var paths: [String] = []
        if case .array(let values) = filter.value { paths = values.compactMap(path) }
        switch filter.op {
        case .in: return ([.pathIn(paths)], true)
        case .notIn: return ([.pathNotIn(paths)], true)
        case .notEqual:
            guard let text = path(filter.value) else { return ([], false) }
            return ([.pathNotIn([text])], true)
        default:
            guard let op = ServerRange.sql(filter.op), let text = path(filter.value) else { return ([], false) }
            if op == "=" { return ([.pathIn([text])], true) }
            return ([.path(op: op, path: text)], true)
        }
    }

    /// `{field: value}` as JSON text (`{field: [value]}` `asMember` of an array), when its
    /// containment is equality with `value`.
    private static func contained(_ value: FirestoreValue, at field: [String], allowingNull: Bool = false, asMember: Bool = false) -> String? {
        switch value {
        case .null: guard allowingNull else { return nil }
        case .boolean: break
        case .string(let text): guard !text.contains("\0") else { return nil }
        case .integer(let i): guard i != 0, ServerRange(.equal, value) != nil else { return nil }
        case .double(let d): guard d != 0, ServerRange(.equal, value) != nil else { return nil }
        default: return nil
        }
        var nested = asMember ? .array([value]) : value
        for name in field.reversed() { nested = .map([name: nested]) }
        guard case .map(let fields) = nested else { return nil }
        return DocumentText.text(fields)
    }
}

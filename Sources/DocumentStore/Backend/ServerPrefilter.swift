/// The part of a query a database server can narrow down by itself: the equality filters the
/// query ANDs, on strings, booleans and non-zero finite numbers, as one map of fields a
/// document must contain (PostgreSQL's `fields @> …` over jsonb, served by an index). It only
/// narrows: the rows it lets through are still evaluated by `QueryEvaluator`, so it needs to
/// be exact only in never leaving out a document that matches. Zero is left to the evaluator
/// (-0.0 is stored tagged, see `DocumentText`), and so are fields with a segment starting
/// with "$" (a map whose only key starts with "$" is stored tagged too).
enum ServerPrefilter {
    /// The fields every matching document contains; nil when the query has no such filter.
    static func containment(_ definition: QueryDefinition) -> [String: FirestoreValue]? {
        narrowing(definition).fields
    }

    /// True when the containment is the query's whole filter, exactly: every filter is an
    /// equality on a string or a boolean (no number: `jsonb` finds 1.0 for 1, Firestore does
    /// not), all ANDed, none on the same field as another. Then the server's rows are exactly
    /// the matching documents, and it may count them or cut them to a limit itself.
    static func isExact(_ definition: QueryDefinition) -> Bool {
        narrowing(definition).isExact
    }

    private static func narrowing(_ definition: QueryDefinition) -> (fields: [String: FirestoreValue]?, isExact: Bool) {
        var fields: [String: FirestoreValue] = [:]
        var isExact = !definition.filters.contains(where: hasDisjunction)
        for filter in definition.filters.flatMap(conjuncts) {
            guard filter.op == .equal, !filter.field.isDocumentID, isNarrowable(filter.value),
                  !filter.field.segments.contains(where: { $0.hasPrefix("$") }) else { isExact = false; continue }
            if let next = merged(fields, filter.field.segments[...], filter.value) { fields = next } else { isExact = false }
            switch filter.value {
            case .string(let text): if text.contains("\0") { isExact = false }
            case .boolean: break
            default: isExact = false
            }
        }
        return (fields.isEmpty ? nil : fields, isExact)
    }

    /// The field filters that must all hold: those of the top level and of nested ANDs.
    private static func conjuncts(_ filter: QueryFilter) -> [FieldFilter] {
        switch filter {
        case .field(let filter): return [filter]
        case .and(let filters): return filters.flatMap(conjuncts)
        case .or: return []
        }
    }

    private static func hasDisjunction(_ filter: QueryFilter) -> Bool {
        switch filter {
        case .field: return false
        case .and(let filters): return filters.contains(where: hasDisjunction)
        case .or: return true
        }
    }

    private static func isNarrowable(_ value: FirestoreValue) -> Bool {
        switch value {
        case .string, .boolean: return true
        case .integer(let i): return i != 0
        case .double(let d): return d.isFinite && d != 0
        default: return false
        }
    }

    /// `fields` with `value` at `path`; nil when the path runs into a value already there.
    private static func merged(_ fields: [String: FirestoreValue], _ path: ArraySlice<String>, _ value: FirestoreValue) -> [String: FirestoreValue]? {
        guard let name = path.first else { return nil }
        var fields = fields
        if path.count == 1 {
            guard fields[name] == nil else { return nil }
            fields[name] = value
            return fields
        }
        var inner: [String: FirestoreValue] = [:]
        switch fields[name] {
        case nil: break
        case .map(let map)?: inner = map
        default: return nil
        }
        guard let nested = merged(inner, path.dropFirst(), value) else { return nil }
        fields[name] = .map(nested)
        return fields
    }
}

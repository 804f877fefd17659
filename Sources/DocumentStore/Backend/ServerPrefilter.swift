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
        var fields: [String: FirestoreValue] = [:]
        for filter in definition.filters.flatMap(conjuncts) {
            guard filter.op == .equal, !filter.field.isDocumentID, isNarrowable(filter.value),
                  !filter.field.segments.contains(where: { $0.hasPrefix("$") }) else { continue }
            fields = merged(fields, filter.field.segments[...], filter.value) ?? fields
        }
        return fields.isEmpty ? nil : fields
    }

    /// The field filters that must all hold: those of the top level and of nested ANDs.
    private static func conjuncts(_ filter: QueryFilter) -> [FieldFilter] {
        switch filter {
        case .field(let filter): return [filter]
        case .and(let filters): return filters.flatMap(conjuncts)
        case .or: return []
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

/// A query's condition: a field filter, or filters joined by AND or OR, nested at will
/// (`Filter.andFilter`, `Filter.orFilter`).
package indirect enum QueryFilter: Sendable {
    case field(FieldFilter)
    case and([QueryFilter])
    case or([QueryFilter])

    func matches(_ document: QueryDocumentSnapshot) -> Bool {
        switch self {
        case .field(let filter): return filter.matches(document)
        case .and(let filters): return filters.allSatisfy { $0.matches(document) }
        case .or(let filters): return filters.contains { $0.matches(document) }
        }
    }

    /// Every field filter inside, in order.
    var fieldFilters: [FieldFilter] {
        switch self {
        case .field(let filter): return [filter]
        case .and(let filters), .or(let filters): return filters.flatMap(\.fieldFilters)
        }
    }

    /// How many terms the filter has in disjunctive normal form, counting each value of `in`
    /// and `arrayContainsAny` as one: Firestore refuses more than 30.
    var disjunctionCount: Int {
        switch self {
        case .field(let filter):
            if filter.op == .in || filter.op == .arrayContainsAny, case .array(let values) = filter.value { return max(values.count, 1) }
            return 1
        case .and(let filters): return filters.reduce(1) { min($0 * $1.disjunctionCount, 1 << 40) }
        case .or(let filters): return filters.reduce(0) { $0 + $1.disjunctionCount }
        }
    }

    /// The most `arrayContains` and `arrayContainsAny` filters in one term of the disjunctive
    /// normal form: Firestore allows one per disjunction.
    var mostArrayMembershipsPerDisjunction: Int {
        switch self {
        case .field(let filter): return filter.op.isArrayMembership ? 1 : 0
        case .and(let filters): return filters.reduce(0) { $0 + $1.mostArrayMembershipsPerDisjunction }
        case .or(let filters): return filters.map(\.mostArrayMembershipsPerDisjunction).max() ?? 0
        }
    }

    /// A filter with no field filter inside (an empty `andFilter`) changes nothing.
    var isEmpty: Bool { fieldFilters.isEmpty }
}

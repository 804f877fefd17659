/// What Firestore's backend refuses in a whole query, in its words (Google's emulator's, to the
/// letter, which `scripts/differential.py` compares): checked when the query is read, after the
/// SDK's checks at each call (`QueryDefinition+Building`), which a query from `shelf serve`
/// skips (`checksArguments`) because the backend answers its clients, not the SDK. Firestore
/// allows inequalities on up to ten fields and orders on any field beside them.
extension QueryDefinition {
    /// Most distinct fields a query's inequalities may have.
    static let maxInequalityFields = 10

    private static func refused(_ message: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.invalidArgument, message)
    }

    /// Why Firestore's backend refuses this query; nil when it does not. Where several rules
    /// are broken, the one the emulator names is the first here (measured pairwise).
    func backendRefusal() -> FirestoreErrorCode? {
        refusalBeforeOrders() ?? orderRefusal() ?? descendingNameScanRefusal()
    }

    /// Orders only by the name, the last descending (`[__name__ desc, __name__ desc]`), no
    /// inequality's field among them: a descending key scan, refused as such before the
    /// orders' own rules (measured).
    private var scansNamesOnlyDescending: Bool {
        orders.allSatisfy(\.field.isDocumentID) && explicitOrders.last?.descending == true
    }

    /// As sent: the filters' rules judge the filters the client sent (`sentFilters`).
    private var asSent: QueryDefinition {
        guard let sentFilters else { return self }
        var sent = self
        (sent.filters, sent.sentFilters) = (sentFilters, nil)
        return sent
    }

    /// The fields the query's inequalities are on, in the order first filtered: of the filters
    /// it runs, so a range over null or NaN, or `!= null` as a field filter, which match
    /// nothing, is none (the emulator counts them so). They order the results too (`orders`).
    var inequalityFields: [FieldPath] {
        var fields: [FieldPath] = []
        for filter in filters.flatMap(\.fieldFilters) where filter.op.isInequality && !fields.contains(filter.field) {
            fields.append(filter.field)
        }
        return fields
    }

    /// The rules judged before the orders: an aggregation's own check (its fields after an
    /// ordered name, `AggregateQuery.aggregated`) comes between, as the emulator judges them.
    func refusalBeforeOrders() -> FirestoreErrorCode? {
        asSent.refusalBeforeOrders(inequalityFields: inequalityFields)
    }

    /// The rules on the filters as sent, beside the inequalities of those run.
    private func refusalBeforeOrders(inequalityFields: [FieldPath]) -> FirestoreErrorCode? {
        let fieldFilters = filters.flatMap(\.fieldFilters)
        if fieldFilters.filter(\.op.excludes).count > 1 {
            return Self.refused("Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
        }
        if fieldFilters.contains(where: { $0.op == .notIn }),
           fieldFilters.contains(where: { $0.op == .in || $0.op == .arrayContainsAny }) || filters.contains(where: \.hasDisjunction) {
            return Self.refused("'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
        }
        if let refusal = fieldFilters.lazy.compactMap(Self.operandShapeRefusal).first { return refusal }
        if let refusal = cursorRefusal(start) ?? cursorRefusal(end) { return refusal }
        let whole = QueryFilter.and(filters)
        if whole.mostArrayMembershipsPerDisjunction > 1 {
            return Self.refused("A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.")
        }
        let onName = fieldFilters.filter(\.field.isDocumentID)
        // Judged filter by filter, in the order sent: the first wrong one is named (measured).
        for filter in onName {
            if filter.op.isArrayMembership { return Self.refused("the name __key__ is reserved") }
            if !Self.operandIsReference(filter) { return Self.refused("__key__ filter value must be a Key") }
        }
        if inequalityFields.count > Self.maxInequalityFields {
            let names = inequalityFields.map(\.backendName).joined(separator: ", ")
            return Self.refused("The query contains \(inequalityFields.count) distinct inequality fields: [\(names)]. A query may not have more than \(Self.maxInequalityFields) distinct inequality fields.")
        }
        let disjunctions = whole.disjunctionCount
        if disjunctions > Self.maxDisjunctions {
            return Self.refused("Too many disjunctions after normalization. Result had \(disjunctions) disjunctions which is more than the maximum of \(Self.maxDisjunctions)")
        }
        if onName.contains(where: { $0.op == .equal || $0.op == .in }),
           !inequalityFields.isEmpty, !inequalityFields.contains(where: \.isDocumentID) {
            return Self.refused("Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities.")
        }
        return nil
    }

    /// A filter's operand as `in`, `notIn` and `arrayContainsAny` take it: an array of one to
    /// so many values.
    private static func operandShapeRefusal(_ filter: FieldFilter) -> FirestoreErrorCode? {
        guard filter.op.takesArray else { return nil }
        guard case .array(let items) = filter.value else { return refused("'\(filter.op.protocolName)' requires an ArrayValue.") }
        if items.isEmpty { return refused("'\(filter.op.protocolName)' requires an non-empty ArrayValue.") }
        let most = filter.op == .notIn ? maxNotInValues : maxDisjunctions
        if items.count > most { return refused("'\(filter.op.protocolName)' supports up to \(most) comparison values.") }
        return nil
    }

    /// A filter on the document's name compares with references only.
    private static func operandIsReference(_ filter: FieldFilter) -> Bool {
        let operands: [FirestoreValue]
        if filter.op.takesArray, case .array(let items) = filter.value { operands = items } else { operands = [filter.value] }
        return operands.allSatisfy { if case .reference = $0 { return true } else { return false } }
    }

    /// The emulator scans names in one direction only: a served query ordered first by the
    /// name descending, that no equality or array filter on a field narrows, is refused (the
    /// Swift API keeps serving it; Shelf's own commands use it).
    func descendingNameScanRefusal() -> FirestoreErrorCode? {
        guard !checksArguments, let first = orders.first, first.field.isDocumentID, first.descending else { return nil }
        let narrowing: Set<FilterOperator> = [.equal, .in, .arrayContains, .arrayContainsAny]
        if filters.flatMap(\.fieldFilters).contains(where: { !$0.field.isDocumentID && narrowing.contains($0.op) }) { return nil }
        return FirestoreErrorCode(.failedPrecondition, "Firestore does not support descending key scans")
    }

    /// Each field ordered once, and nothing ordered after the document's name, the implicit
    /// orders of inequality fields included.
    func orderRefusal() -> FirestoreErrorCode? {
        if scansNamesOnlyDescending, descendingNameScanRefusal() != nil { return nil }
        var seen: [FieldPath] = []
        for order in orders {
            if seen.last?.isDocumentID == true { return Self.refused("order by clause cannot contain more fields after the key") }
            if seen.contains(order.field) {
                return Self.refused("order by clause cannot contain duplicate fields \(order.field.backendName)")
            }
            seen.append(order.field)
        }
        return nil
    }

    /// A cursor has a value for at most each explicit order, a reference where it is the name's.
    /// Only for a served query: the SDK checks cursors of values at the call, and a cursor at
    /// a document holds values for the implicit orders too, which the SDK sends as explicit.
    private func cursorRefusal(_ bound: Bound?) -> FirestoreErrorCode? {
        guard let bound, !checksArguments else { return nil }
        if bound.position.count > explicitOrders.count { return Self.refused("Cursor has too many values.") }
        // The value at the name's first order only: a repeated one is judged by the orders' rules.
        guard let index = explicitOrders.firstIndex(where: \.field.isDocumentID), index < bound.position.count else { return nil }
        if case .reference = bound.position[index] { return nil }
        return Self.refused("Cursor __key__ value is not a document reference.")
    }
}

extension QueryFilter {
    /// Whether an OR is anywhere inside.
    var hasDisjunction: Bool {
        switch self {
        case .field: return false
        case .and(let filters): return filters.contains(where: \.hasDisjunction)
        case .or: return true
        }
    }
}

extension FieldPath {
    /// The name Firestore's backend gives the field in its messages: dotted, unquoted, the
    /// document's name as `__key__`.
    var backendName: String { isDocumentID ? "__key__" : segments.joined(separator: ".") }
}

import Foundation

/// Each refinement of a query, checked as Firestore checks it when the call is made. A refused
/// refinement throws `invalidArgument` with Firestore's reason; the public `Query` keeps that
/// error and reports it on every read and listener.
extension QueryDefinition {
    static func invalid(_ message: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.invalidArgument, "Invalid query. " + message)
    }

    /// Most values one `in` or `arrayContainsAny` takes, and most disjunctions in a query.
    static let maxDisjunctions = 30
    /// Most values one `notIn` takes.
    static let maxNotInValues = 10

    func adding(_ filter: QueryFilter) throws(FirestoreErrorCode) -> QueryDefinition {
        if filter.isEmpty { return self }
        guard checksArguments else {
            var refined = self
            refined.filters.append(filter)
            return refined
        }
        var seen = filters.flatMap(\.fieldFilters).map(\.op)
        for field in filter.fieldFilters {
            try Self.check(field)
            if let conflict = field.op.conflicting.first(where: seen.contains) {
                throw conflict == field.op
                    ? Self.invalid("You cannot use more than one '\(field.op.rawValue)' filter.")
                    : Self.invalid("You cannot use '\(field.op.rawValue)' filters with '\(conflict.rawValue)' filters.")
            }
            seen.append(field.op)
        }
        var refined = self
        refined.filters.append(filter)
        let whole = QueryFilter.and(refined.filters)
        if whole.mostArrayMembershipsPerDisjunction > 1 {
            throw Self.invalid("A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction ('arrayContains' and 'arrayContainsAny' both count).")
        }
        let disjunctions = whole.disjunctionCount
        if disjunctions > Self.maxDisjunctions {
            throw Self.invalid("The filters make \(disjunctions) disjunctions in disjunctive normal form (each value of 'in' and 'arrayContainsAny' counts as one); Firestore allows at most \(Self.maxDisjunctions).")
        }
        return refined
    }

    private static func check(_ filter: FieldFilter) throws(FirestoreErrorCode) {
        if filter.op.takesArray, case .array(let values) = filter.value {
            if values.isEmpty { throw invalid("A non-empty array is required for '\(filter.op.rawValue)' filters.") }
            let most = filter.op == .notIn ? maxNotInValues : maxDisjunctions
            if values.count > most {
                throw invalid("'\(filter.op.rawValue)' filters support at most \(most) values, this one has \(values.count).")
            }
        }
        if filter.op.isRange && (filter.value.isNull || filter.value.isNaN) {
            throw invalid("\(filter.value.isNull ? "Null" : "NaN") supports only 'isEqualTo' and 'isNotEqualTo' comparisons (field '\(filter.field)').")
        }
    }

    /// A filter's value for `FieldPath.documentID()`: a `DocumentReference`, or a string id
    /// (a path relative to the root for a collection group).
    func documentIDValue(_ value: FirestoreValue, firestore: Firestore) throws(FirestoreErrorCode) -> FirestoreValue {
        switch value {
        case .reference: return value
        case .string(let id):
            if id.isEmpty { throw Self.invalid("When querying by document ID you must provide a valid document ID, but it was an empty string.") }
            if !isCollectionGroup && id.utf8.contains(UInt8(ascii: "/")) {
                throw Self.invalid("When querying a collection by document ID you must provide a plain document ID, but '\(id)' contains a '/' character.")
            }
            let path = ResourcePath(segments: basePath.segments + id.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
            if !path.isDocument {
                throw Self.invalid("When querying a collection group by document ID, the value provided must result in a valid document path, but '\(path)' is not because it has an odd number of segments.")
            }
            return .reference(DocumentReference(firestore: firestore, path: path))
        default:
            throw Self.invalid("When querying by document ID you must provide a valid string or DocumentReference, but it was \(value.typeName).")
        }
    }

    func ordered(by order: OrderBy) throws(FirestoreErrorCode) -> QueryDefinition {
        if checksArguments && start != nil { throw Self.invalid("You must not specify a starting point before specifying the order by.") }
        if checksArguments && end != nil { throw Self.invalid("You must not specify an ending point before specifying the order by.") }
        var refined = self
        refined.explicitOrders.append(order)
        return refined
    }

    func limited(to count: Int, _ kind: LimitKind) throws(FirestoreErrorCode) -> QueryDefinition {
        if count <= 0 { throw Self.invalid("Query limit (\(count)) is invalid. Limit must be positive.") }
        var refined = self
        refined.limit = count
        refined.limitKind = kind
        return refined
    }

    func containing(words: [String]) -> QueryDefinition {
        var refined = self
        refined.words += TextWords.folded(words).map { String(decoding: $0, as: UTF8.self) }
        return refined
    }

    func skipping(_ count: Int) throws(FirestoreErrorCode) -> QueryDefinition {
        if count < 0 { throw Self.invalid("Query offset (\(count)) is invalid. Offset must not be negative.") }
        var refined = self
        refined.offset = count
        return refined
    }

    func bounded(start: Bound? = nil, end: Bound? = nil) -> QueryDefinition {
        var refined = self
        if let start { refined.start = start }
        if let end { refined.end = end }
        return refined
    }

    /// A cursor from values, one per explicit order, in order.
    func bound(values: [FirestoreValue], inclusive: Bool, firestore: Firestore) throws(FirestoreErrorCode) -> Bound {
        guard checksArguments else { return Bound(position: values, inclusive: inclusive) }
        if values.count > explicitOrders.count {
            throw Self.invalid("You are trying to start or end a query using more values (\(values.count)) than were specified in the order by (\(explicitOrders.count)).")
        }
        var position: [FirestoreValue] = []
        for (value, order) in zip(values, explicitOrders) {
            guard order.field.isDocumentID else { position.append(value); continue }
            guard case .string(let id) = value else {
                throw Self.invalid("Expected a string for the document ID, but it was \(value.typeName).")
            }
            if !isCollectionGroup && id.utf8.contains(UInt8(ascii: "/")) {
                throw Self.invalid("When querying a collection and ordering by document ID, you must pass a plain document ID, but '\(id)' contains a slash.")
            }
            let path = ResourcePath(segments: basePath.segments + id.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
            if !path.isDocument || id.isEmpty {
                throw Self.invalid("When querying a collection group and ordering by document ID, you must pass a value that results in a valid document path, but '\(id)' is not because it contains an odd number of segments.")
            }
            position.append(.reference(DocumentReference(firestore: firestore, path: path)))
        }
        return Bound(position: position, inclusive: inclusive)
    }

    /// A cursor at a document: its values for every order, implicit ones included.
    func bound(document: DocumentSnapshot, inclusive: Bool) throws(FirestoreErrorCode) -> Bound {
        guard document.exists, let fields = document.stored.fields else {
            throw Self.invalid("You are trying to start or end a query using a document that doesn't exist (\(document.reference.path)).")
        }
        var position: [FirestoreValue] = []
        for order in orders {
            if order.field.isDocumentID { position.append(.reference(document.reference)); continue }
            guard let value = fields.value(at: order.field.segments) else {
                throw Self.invalid("You are trying to start or end a query using a document for which the field '\(order.field)' (used as the orderBy) does not exist.")
            }
            position.append(value)
        }
        return Bound(position: position, inclusive: inclusive)
    }

    /// Checked when the query is read or listened to, as Firebase does.
    func checkReadable() throws(FirestoreErrorCode) {
        if limitKind == .last && limit != nil && explicitOrders.isEmpty {
            throw FirestoreErrorCode(.invalidArgument, "limit(toLast:) queries require specifying at least one order(by:) clause.")
        }
    }
}

/// What a query asks for, as plain values: where its documents live, its filters, orders,
/// cursors and limit. The public `Query` is a thin wrapper around one; listeners and one-off
/// reads evaluate it with `matches` and `compare`, so both always agree.
package struct QueryDefinition: Sendable {
    package enum Source: Sendable, Equatable {
        /// One collection's documents.
        case collection(ResourcePath)
        /// Every collection with this id, at any depth.
        case group(String)
    }

    package enum LimitKind: Sendable { case first, last }

    package var source: Source
    /// Joined by AND.
    package var filters: [QueryFilter] = []
    package var explicitOrders: [OrderBy] = []
    package var limit: Int?
    package var limitKind: LimitKind = .first
    /// Results skipped before the limit's first (`Query.offset`, the protocol's
    /// `StructuredQuery.offset`).
    package var offset = 0
    /// Words each matching document holds in its strings (`TextWords`), folded to lower case.
    package var words: [String] = []
    package var start: Bound?
    package var end: Bound?
    /// Whether each refinement is checked as Firebase's SDK checks it at the call; off for a
    /// query `shelf serve` was sent, which only Firestore's backend rules judge
    /// (`backendRefusal`), in its words. Not part of the query's identity.
    package var checksArguments = true
    /// The filters as a client sent them, when the query runs others: the backend's rules on
    /// filters judge these (`backendRefusal`). Not part of the query's identity.
    package var sentFilters: [QueryFilter]?

    /// The orders the results follow: the explicit ones, then every inequality field not
    /// already ordered (in field order), then the document id, each in the direction of the
    /// last explicit order, as Firestore does.
    package var orders: [OrderBy] {
        var orders = explicitOrders
        let direction = explicitOrders.last?.descending ?? false
        let ordered = Set(explicitOrders.map(\.field))
        let inequalities = inequalityFields.filter { !ordered.contains($0) && !$0.isDocumentID }
        for field in inequalities.sorted(by: FieldPath.precedes) { orders.append(OrderBy(field: field, descending: direction)) }
        if !ordered.contains(FieldPath.documentID()) { orders.append(OrderBy(field: .documentID(), descending: direction)) }
        return orders
    }

    package var isCollectionGroup: Bool { if case .group = source { return true } else { return false } }

    /// The path a document-id string is relative to: the collection, or the root for a group.
    package var basePath: ResourcePath {
        if case .collection(let path) = source { return path }
        return ResourcePath(segments: [])
    }
}

extension FieldPath {
    /// Firestore's order of field paths: segment by segment, by UTF-8 bytes.
    static func precedes(_ a: FieldPath, _ b: FieldPath) -> Bool {
        for (x, y) in zip(a.segments, b.segments) {
            let order = UTF8Bytes.compare(x, y)
            if order != 0 { return order < 0 }
        }
        return a.segments.count < b.segments.count
    }
}

extension QueryDefinition {
    /// Every document of the source, in the order of their ids.
    package init(source: Source) {
        self.init(source: source, filters: [])
    }
}

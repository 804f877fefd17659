import DocumentStore
/// A page that a database server can read in the query's order and cut to the query's limit
/// itself: made only for the queries whose whole filter the server applies exactly
/// (`ServerPrefilter`), ordered by fields and then the id, with cursors inside the exactly
/// ordered values when every order has one direction. A collection's documents are ordered
/// by id, a group's by their whole paths compared segment by segment, ids in Firestore's order
/// (`IDOrder`: numeric ids first).
///
/// The server orders a field's values by (`ServerOrderRank`, key, text). That order is
/// Firestore's for every value except the "loose" ones (numbers of 2^53 or more in size, and
/// the types after numbers but strings), which it still puts in their place among the others, so the page is exact
/// unless the server's `limit` rows include a loose value (or a document the core cannot
/// read): the backend then reads the query the slow way. The evaluator still runs over
/// the page; the server only leaves out rows it would.
package struct ServerPage: Sendable, Equatable {
    package var selection: ServerSelection
    /// The ordered fields' segments, before the path.
    package var fields: [[String]]
    /// For each field, true when it is ordered the other way than the id.
    package var reversed: [Bool]
    /// The id's direction (the last order's).
    package var descending: Bool
    /// True for `limit(toLast:)`: the server reads from the other end.
    package var fromEnd: Bool
    /// nil: every row within the cursors (a count).
    package var limit: Int?
    /// Rows skipped before the limit's first.
    package var offset: Int
    /// Rows at or after (`start`) and at or before (`end`) these, in the query's order.
    package var start: ServerCursor?
    package var end: ServerCursor?

    /// The page for `definition`, or nil when the server cannot order or cut it exactly.
    init?(_ definition: QueryDefinition) {
        let orders = definition.orders
        guard let last = orders.last, last.field.isDocumentID else { return nil }
        // Cursors compare rows in one direction only (a row comparison).
        let isMixed = orders.contains { $0.descending != last.descending }
        guard !isMixed || (definition.start == nil && definition.end == nil) else { return nil }
        var fields: [[String]] = []
        for order in orders.dropLast() {
            guard let field = ServerPrefilter.storedField(order.field) else { return nil }
            fields.append(field)
        }
        reversed = orders.dropLast().map { $0.descending != last.descending }
        let (conditions, isExact) = ServerPrefilter.conditions(definition)
        guard isExact else { return nil }
        selection = ServerSelection(definition.source, conditions: conditions)
        self.fields = fields
        descending = last.descending
        fromEnd = definition.limitKind == .last
        limit = definition.limit
        offset = definition.offset
        start = nil
        end = nil
        let collection: ResourcePath? = definition.isCollectionGroup ? nil : definition.basePath
        if let bound = definition.start {
            guard let cursor = ServerCursor(bound, fields: fields.count, in: collection) else { return nil }
            start = cursor
        }
        if let bound = definition.end {
            guard let cursor = ServerCursor(bound, fields: fields.count, in: collection) else { return nil }
            end = cursor
        }
    }

    /// The page that also reads the last row its offset skips, first, to check that the skip
    /// fell between rows ordered exactly (`isExact(_:lastSkippedFirst:)`); itself without an offset.
    func withLastSkipped() -> ServerPage {
        guard offset > 0 else { return self }
        var page = self
        page.offset -= 1
        page.limit = limit.map { $0 + 1 }
        return page
    }

    /// True when the server's rows are the page's exactly: fewer than the limit (all there
    /// are), or none with a loose value or unreadable; and, when the first row is the last one
    /// skipped, it and the first one kept ordered exactly (a skip between two loose values of a
    /// kind may have skipped the wrong one).
    func isExact(_ rows: [QueryDocumentSnapshot], lastSkippedFirst: Bool = false) -> Bool {
        if lastSkippedFirst && !rows.prefix(2).allSatisfy(isOrderedExactly) { return false }
        guard let limit, rows.count >= limit else { return true }  // every row: the evaluator orders them
        return rows.allSatisfy(isOrderedExactly)
    }

    private func isOrderedExactly(_ row: QueryDocumentSnapshot) -> Bool {
        guard let values = row.stored.fields else { return false }
        return fields.allSatisfy { ServerOrderRank(values.value(at: $0)).isExact }
    }
}

/// A cursor of a `ServerPage`: the rank, key and text of each ordered field it gives, the document's
/// path when it gives the id too, and whether rows at it are included.
package struct ServerCursor: Sendable, Equatable {
    package var ranks: [Int]
    /// Decimal numbers, for numbers and booleans; "0" otherwise.
    package var keys: [String]
    /// Texts ordering rank 8 (`ServerOrderRank.text`).
    package var texts: [String]
    package var path: String?
    package var inclusive: Bool

    /// `collection`: the query's, whose documents a cursor's id must be in; nil for a group.
    init?(_ bound: Bound, fields: Int, in collection: ResourcePath?) {
        ranks = []
        keys = []
        texts = []
        for value in bound.position.prefix(fields) {
            let rank = ServerOrderRank(value)
            guard rank.isExact else { return nil }
            ranks.append(rank.rawValue)
            keys.append(rank.key)
            texts.append(rank.text)
        }
        let rest = bound.position.dropFirst(fields)
        if let id = rest.first {
            guard case .reference(let reference) = id,
                  collection == nil || reference.resourcePath.parent == collection else { return nil }
            path = reference.resourcePath.description
        }
        guard rest.count <= 1, !ranks.isEmpty || path != nil else { return nil }
        inclusive = bound.inclusive
    }
}

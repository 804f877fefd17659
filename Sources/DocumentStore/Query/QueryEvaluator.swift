/// Evaluates a `QueryDefinition` over documents: which match, in which order, and the page a
/// limit keeps. Pure: no files, no state; one-off reads and listeners share it.
package struct QueryEvaluator: Sendable {
    let definition: QueryDefinition
    /// `definition.orders`, computed once.
    let orders: [OrderBy]
    /// The filters, the fields orders require, then the cursors: cheapest first.
    private let filters: [QueryFilter]
    private let requiredFields: [FieldPath]
    private let words: [[UInt8]]
    private let isGroup: Bool
    /// True when the order is by id alone: documents sort by their keys, no field read.
    private let isOrderedByIDOnly: Bool
    /// No filter, no cursor, no ordered field a document could lack: every document matches.
    let matchesEverything: Bool

    package init(_ definition: QueryDefinition) {
        self.definition = definition
        orders = definition.orders
        filters = definition.filters
        // A field filter at the top (filters are ANDed) needs its field present anyway.
        let filtered = definition.filters.compactMap { filter -> FieldPath? in
            if case .field(let field) = filter { return field.field }
            return nil
        }
        requiredFields = orders.map(\.field).filter { field in !field.isDocumentID && !filtered.contains(field) }
        words = definition.words.map { Array($0.utf8) }
        isGroup = definition.isCollectionGroup
        isOrderedByIDOnly = orders.count == 1 && orders[0].field.isDocumentID && !isGroup
        matchesEverything = filters.isEmpty && requiredFields.isEmpty && words.isEmpty && definition.start == nil && definition.end == nil
    }

    /// True when `document` belongs in the results before any limit: it has every ordered
    /// field (Firestore leaves out documents without one), passes the filters and the cursors.
    func matches(_ document: QueryDocumentSnapshot) -> Bool {
        if !requiredFields.isEmpty || !filters.isEmpty {
            guard let fields = document.stored.fields else { return false }
            for field in requiredFields {
                let present = field.segments.count == 1 ? fields[field.segments[0]] != nil : fields.value(at: field.segments) != nil
                if !present { return false }
            }
            for filter in filters where !filter.matches(document) { return false }
        }
        if !words.isEmpty {
            guard let fields = document.stored.fields, TextWords.match(words, in: fields) else { return false }
        }
        if let start = definition.start, !start.isBefore(document, orders: orders) { return false }
        if let end = definition.end, !end.isAfter(document, orders: orders) { return false }
        return true
    }

    /// -1, 0 or 1: the query's order, ending with the document's path, so only a document
    /// compares equal to itself.
    func compare(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot) -> Int {
        compare(a, b) { DocumentValues.value(of: orders[$0].field, in: b) }
    }

    func areInIncreasingOrder(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot) -> Bool {
        compare(a, b) < 0
    }

    /// Documents of one collection compare by id bytes; of a group, by their whole paths.
    private func comparePaths(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot) -> Int {
        if !isGroup { return a.key == b.key ? 0 : (a.key < b.key ? -1 : 1) }
        return a.comparePath(to: b)
    }

    /// The results: matching documents in order, cut to the limit. With a small limit only the
    /// best `limit` are kept while scanning, so a page of 100,000 documents sorts 10, not all.
    package func results(from documents: some Sequence<QueryDocumentSnapshot>) -> [QueryDocumentSnapshot] {
        if isOrderedByIDOnly { return Array(window(of: sortedByID(matching(documents)))) }
        guard let limit = pageLimit else {
            return Array(window(of: matching(documents).sorted(by: areInIncreasingOrder)))
        }
        let documents = Array(documents)
        return Array(skipping(page(limit: limit, count: documents.count, document: { documents[$0] }, firstValue: nil)))
    }

    /// How many documents a small page keeps while scanning (the offset's with the limit's),
    /// nil when too many to keep that way.
    private var pageLimit: Int? {
        guard let limit = definition.limit, limit + definition.offset <= 1000 else { return nil }
        return limit + definition.offset
    }

    /// `sorted` without the offset's documents: its first, or with `limit(toLast:)` its last.
    private func skipping<C: BidirectionalCollection>(_ sorted: C) -> C.SubSequence {
        definition.limitKind == .last && definition.limit != nil ? sorted.dropLast(definition.offset) : sorted.dropFirst(definition.offset)
    }

    /// The documents that match, without a pass over them when all do.
    private func matching(_ documents: some Sequence<QueryDocumentSnapshot>) -> [QueryDocumentSnapshot] {
        matchesEverything ? Array(documents) : documents.filter(matches)
    }

    /// The same, for `documents` with the values of the first ordered field (not the id) given
    /// in `column`: only documents that could enter the page are looked at.
    func results(from documents: [QueryDocumentSnapshot], firstOrderColumn column: [FirestoreValue?]) -> [QueryDocumentSnapshot] {
        guard let limit = pageLimit, documents.count == column.count,
              let first = orders.first, !first.field.isDocumentID else { return results(from: documents) }
        return Array(skipping(page(limit: limit, count: documents.count, document: { documents[$0] }, firstValue: { column[$0] })))
    }

    /// The best `limit` of `count` documents, kept sorted while scanning. Once the page is full,
    /// most documents fall behind its last one, which costs one look at their first ordered
    /// value (in the column when given) before any filter.
    private func page(limit: Int, count: Int, document: (Int) -> QueryDocumentSnapshot,
                      firstValue: ((Int) -> FirestoreValue?)?) -> [QueryDocumentSnapshot] {
        let fromEnd = definition.limitKind == .last
        // "Better" is earlier for limit(to:), later for limit(toLast:).
        let isBetter: (QueryDocumentSnapshot, QueryDocumentSnapshot) -> Bool = fromEnd
            ? { compare($0, $1) > 0 } : { compare($0, $1) < 0 }
        let firstDescending = orders.first?.descending ?? false
        var kept: [QueryDocumentSnapshot] = []
        kept.reserveCapacity(Swift.min(limit, 1024) + 1)
        var worst: (document: QueryDocumentSnapshot, values: [FirestoreValue?])?
        for index in 0..<count {
            if let worst {
                var order = 0
                if let firstValue {
                    let comparison = ValueOrder.compare(firstValue(index), worst.values[0])
                    order = firstDescending ? -comparison : comparison
                }
                if order == 0 { order = compare(document(index), worst.document, worst.values) }
                if fromEnd ? order <= 0 : order >= 0 { continue }
            }
            let document = document(index)
            guard matches(document) else { continue }
            var low = 0, high = kept.count
            while low < high {
                let mid = (low + high) / 2
                if isBetter(kept[mid], document) { low = mid + 1 } else { high = mid }
            }
            kept.insert(document, at: low)
            if kept.count > limit { kept.removeLast() }
            if kept.count == limit, let last = kept.last, worst?.document !== last {
                worst = (last, orders.map { $0.field.isDocumentID ? nil : DocumentValues.value(of: $0.field, in: last) })
            }
        }
        return fromEnd ? kept.reversed() : kept
    }

    /// `compare(a, b)` with the values of `b`'s ordered fields given.
    private func compare(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot, _ values: [FirestoreValue?]) -> Int {
        compare(a, b) { values[$0] }
    }

    /// `valueOfB(i)`: `b`'s value of the i-th ordered field.
    private func compare(_ a: QueryDocumentSnapshot, _ b: QueryDocumentSnapshot, valueOfB: (Int) -> FirestoreValue?) -> Int {
        for (index, order) in orders.enumerated() {
            let comparison = order.field.isDocumentID
                ? comparePaths(a, b)
                : ValueOrder.compare(DocumentValues.value(of: order.field, in: a), valueOfB(index))
            if comparison != 0 { return order.descending ? -comparison : comparison }
        }
        return 0
    }

    /// Ordered by id alone: by the keys' bytes, and often already so (a scan of the files
    /// reads them in that order), which one pass finds.
    private func sortedByID(_ documents: [QueryDocumentSnapshot]) -> [QueryDocumentSnapshot] {
        let descending = orders[0].descending
        if isSortedByKey(documents) { return descending ? documents.reversed() : documents }
        return KeyOrder.sorted(documents, descending: descending) { $0.key }
    }

    private func isSortedByKey(_ documents: [QueryDocumentSnapshot]) -> Bool {
        documents.indices.dropFirst().allSatisfy { documents[$0 - 1].key < documents[$0].key }
    }

    /// `documents` in the query's order (no filter, no limit).
    func sorted(_ documents: [QueryDocumentSnapshot]) -> [QueryDocumentSnapshot] {
        isOrderedByIDOnly ? sortedByID(documents) : documents.sorted(by: areInIncreasingOrder)
    }

    /// The same for `documents` already in id order (a watcher's first read holds them so),
    /// which is checked in debug builds only: at a million documents the check took a quarter
    /// of a second of the first snapshot, a cache miss a document.
    func sorted(inIDOrder documents: [QueryDocumentSnapshot]) -> [QueryDocumentSnapshot] {
        guard isOrderedByIDOnly else { return documents.sorted(by: areInIncreasingOrder) }
        assert(isSortedByKey(documents), "documents given in id order are not")
        return orders[0].descending ? documents.reversed() : documents
    }

    /// True when `documents` are in the query's order, which one pass tells.
    func isSorted(_ documents: [QueryDocumentSnapshot]) -> Bool {
        if isOrderedByIDOnly && !orders[0].descending { return isSortedByKey(documents) }
        return documents.indices.dropFirst().allSatisfy { compare(documents[$0 - 1], documents[$0]) < 0 }
    }

    /// The page an offset and a limit keep of `sorted` (every matching document, in order).
    func window<C: RandomAccessCollection>(of sorted: C) -> C.SubSequence {
        let kept = skipping(sorted)
        guard let limit = definition.limit else { return kept }
        return definition.limitKind == .first ? kept.prefix(limit) : kept.suffix(limit)
    }
}

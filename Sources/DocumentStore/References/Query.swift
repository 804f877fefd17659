import Foundation

/// A query, as Firebase's: an immutable description of which documents, in which order, built
/// by chaining `whereField`, `order(by:)`, cursors and limits. Each call checks its arguments
/// as Firestore does; a refused one makes a query that reports the error on every read and
/// listener. The matching and ordering live in `QueryEvaluator`.
public class Query: @unchecked Sendable, Hashable {
    public let firestore: Firestore
    package let definition: QueryDefinition
    /// The first argument refused while building this query (references made from it, as
    /// `collection.document(id)`, carry it on).
    let invalid: Error?
    package let evaluator: QueryEvaluator

    package init(firestore: Firestore, definition: QueryDefinition, invalid: Error?) {
        self.firestore = firestore
        self.definition = definition
        self.invalid = invalid
        evaluator = QueryEvaluator(definition)
    }

    init(firestore: Firestore, path: ResourcePath, invalid: Error?) {
        self.firestore = firestore
        definition = QueryDefinition(source: .collection(path))
        self.invalid = invalid
        evaluator = QueryEvaluator(definition)
    }

    /// The collection's path, or the root for a collection group.
    var collectionPath: ResourcePath { definition.basePath }

    /// A new query: `change` refines the description, or throws why it cannot.
    private func refined(_ change: (QueryDefinition) throws -> QueryDefinition) -> Query {
        if invalid != nil { return self }
        do {
            return Query(firestore: firestore, definition: try change(definition), invalid: nil)
        } catch {
            return Query(firestore: firestore, definition: definition, invalid: error)
        }
    }

    /// Ours: this query with the checks Firebase's SDK makes at each call left out, and
    /// Firestore's backend's kept (at the read): for `shelf serve`, which answers as the backend.
    package var checkedAsTheBackendOnly: Query {
        var definition = definition
        definition.checksArguments = false
        return Query(firestore: firestore, definition: definition, invalid: invalid)
    }

    /// Ours: this query with the backend's rules on how filters combine judged on `sent`'s
    /// filters, the ones a client sent, where this one runs others (`shelf serve`'s null and NaN
    /// operands, which equal nothing).
    package func judgingFilters(as sent: Query) -> Query {
        var definition = definition
        definition.sentFilters = sent.definition.filters
        return Query(firestore: firestore, definition: definition, invalid: invalid ?? sent.invalid)
    }

    public static func == (a: Query, b: Query) -> Bool {
        a.firestore === b.firestore && a.definition == b.definition && a.invalid.map { "\($0)" } == b.invalid.map { "\($0)" }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(firestore))
        hasher.combine(definition)
    }

    // MARK: Filters

    @discardableResult
    public func whereFilter(_ filter: Filter) -> Query {
        refined { definition in try definition.adding(filter.resolved(for: definition, firestore: firestore)) }
    }

    private func whereField(_ field: Any, _ op: FilterOperator, _ value: Any) -> Query {
        whereFilter(Filter.make(field, op, value))
    }

    /// Documents whose `field` (a dotted path or a `FieldPath`) equals `value`.
    @discardableResult
    public func whereField(_ field: Any, isEqualTo value: Any) -> Query { whereField(field, .equal, value) }
    /// Documents that have `field`, not null, with another value.
    @discardableResult
    public func whereField(_ field: Any, isNotEqualTo value: Any) -> Query { whereField(field, .notEqual, value) }
    /// Range filters match only values of `value`'s type (numbers: integers and doubles alike).
    @discardableResult
    public func whereField(_ field: Any, isLessThan value: Any) -> Query { whereField(field, .lessThan, value) }
    @discardableResult
    public func whereField(_ field: Any, isLessThanOrEqualTo value: Any) -> Query { whereField(field, .lessThanOrEqual, value) }
    @discardableResult
    public func whereField(_ field: Any, isGreaterThan value: Any) -> Query { whereField(field, .greaterThan, value) }
    @discardableResult
    public func whereField(_ field: Any, isGreaterThanOrEqualTo value: Any) -> Query { whereField(field, .greaterThanOrEqual, value) }
    /// Documents whose array `field` holds `value`.
    @discardableResult
    public func whereField(_ field: Any, arrayContains value: Any) -> Query { whereField(field, .arrayContains, value) }
    /// Documents whose array `field` holds at least one of `values` (at most 30).
    @discardableResult
    public func whereField(_ field: Any, arrayContainsAny values: [Any]) -> Query { whereField(field, .arrayContainsAny, values) }
    /// Documents whose `field` equals one of `values` (at most 30).
    @discardableResult
    public func whereField(_ field: Any, in values: [Any]) -> Query { whereField(field, .in, values) }
    /// Documents that have `field`, not null, equal to none of `values` (at most 10).
    @discardableResult
    public func whereField(_ field: Any, notIn values: [Any]) -> Query { whereField(field, .notIn, values) }

    // MARK: Orders and limits

    /// Orders by `field`; as in Firestore, documents without the field are left out.
    @discardableResult
    public func order(by field: Any, descending: Bool = false) -> Query {
        refined { definition in
            try definition.ordered(by: OrderBy(field: FieldPath.from(field, document: "a query's order(by:)"), descending: descending))
        }
    }

    /// The first `count` results.
    @discardableResult
    public func limit(to count: Int) -> Query { refined { try $0.limited(to: count, .first) } }

    /// The last `count` results, still in the query's order; needs an explicit order.
    @discardableResult
    public func limit(toLast count: Int) -> Query { refined { try $0.limited(to: count, .last) } }

    /// Ours, as the protocol's `StructuredQuery.offset` (Firebase's Swift API has none): the
    /// results after the first `count`, for a list that jumps far into a large query. A server
    /// skips them in its index instead of sending them. With `limit(toLast:)`, which goes to a
    /// server reversed (as Firebase's SDK sends it), the last `count` are skipped. Not listened to.
    package func offset(_ count: Int) -> Query { refined { try $0.skipping(count) } }

    /// Ours (Firestore has no text search): the documents holding each of `words` in one of
    /// their strings, ASCII letters in either case (`TextWords`), for a list's filter as you
    /// type over a collection too large to read; a PostgreSQL store finds them with a trigram
    /// index. A store served over Firestore's protocol refuses it: the protocol has no such filter.
    package func containing(words: [String]) -> Query { refined { $0.containing(words: words) } }

    /// Ours: has the store make ready, in the background, what serves this query's order (a
    /// database server's index of its fields, as Firestore keeps one for every field), so a
    /// list's first sort by a column need not wait for it. A query that cannot run prepares nothing.
    package func prepareOrder() {
        guard (try? checkRunnable()) != nil else { return }
        firestore.queryingStorage?.prepareOrder(of: self)
    }

    /// Ours: whether a read of this query (in its order, whatever its cursors and limit) is
    /// waiting for the store to make what serves the order, so a list can say why its rows are
    /// slow to come: a database server makes an order's index once, at its first page.
    package var isWaitingForItsOrder: Bool { firestore.queryingStorage?.isWaitingForOrder(of: self) ?? false }

    // MARK: Cursors

    private func cursor(values: [Any], inclusive: Bool, isStart: Bool) -> Query {
        refined { definition in
            let converted = try values.enumerated().map { index, value in
                try FirestoreValue(any: value, field: "cursor value \(index)", document: "a query").withTimestampsInMicroseconds
            }
            let bound = try definition.bound(values: converted, inclusive: inclusive, firestore: firestore)
            return isStart ? definition.bounded(start: bound) : definition.bounded(end: bound)
        }
    }

    private func cursor(document: DocumentSnapshot, inclusive: Bool, isStart: Bool) -> Query {
        refined { definition in
            let bound = try definition.bound(document: document, inclusive: inclusive)
            return isStart ? definition.bounded(start: bound) : definition.bounded(end: bound)
        }
    }

    /// Starts at the documents whose ordered fields equal `values`, one per `order(by:)`.
    @discardableResult
    public func start(at values: [Any]) -> Query { cursor(values: values, inclusive: true, isStart: true) }
    @discardableResult
    public func start(after values: [Any]) -> Query { cursor(values: values, inclusive: false, isStart: true) }
    @discardableResult
    public func end(at values: [Any]) -> Query { cursor(values: values, inclusive: true, isStart: false) }
    @discardableResult
    public func end(before values: [Any]) -> Query { cursor(values: values, inclusive: false, isStart: false) }
    /// Starts at `document`'s place in the query's order (every order, the id included).
    @discardableResult
    public func start(atDocument document: DocumentSnapshot) -> Query { cursor(document: document, inclusive: true, isStart: true) }
    @discardableResult
    public func start(afterDocument document: DocumentSnapshot) -> Query { cursor(document: document, inclusive: false, isStart: true) }
    @discardableResult
    public func end(atDocument document: DocumentSnapshot) -> Query { cursor(document: document, inclusive: true, isStart: false) }
    @discardableResult
    public func end(beforeDocument document: DocumentSnapshot) -> Query { cursor(document: document, inclusive: false, isStart: false) }

    /// Ours: whether `document` passes this query's filters and cursors (before any limit),
    /// as a listener on it would keep it: for a list that filters the documents it holds by
    /// a query's own rules. A refused query keeps none (`refusal` says why).
    package func matches(_ document: DocumentSnapshot) -> Bool {
        guard invalid == nil, document.exists else { return false }
        let snapshot = document as? QueryDocumentSnapshot ?? QueryDocumentSnapshot(reference: document.reference, stored: document.stored)
        return evaluator.matches(snapshot)
    }

    /// Why this query was refused while it was built, or is by its store, nil when it was not.
    package var refusal: String? {
        invalid.map { "\(publicError($0))" } ?? definition.backendRefusal().map { "\($0)" }
            ?? firestore.queryingStorage?.refusal(of: definition).map { "\($0)" }
    }

    // MARK: Reading

    /// Throws why this query cannot be run.
    package func checkRunnable() throws {
        if let invalid { throw publicError(invalid) }
        if let refused = definition.backendRefusal() { throw refused }
        if let refused = firestore.queryingStorage?.refusal(of: definition) { throw refused }
        try definition.checkReadable()
    }

    /// The results now, in order: from a listener's memory when the documents are being
    /// listened to, from the files otherwise.
    package func readSnapshot() throws -> QuerySnapshot {
        try checkRunnable()
        let documents: [QueryDocumentSnapshot]
        do { documents = try firestore.backend.results(of: self) } catch { throw publicError(error) }
        let results = documents
        return QuerySnapshot(query: self, documents: results, changes: nil)
    }

    public func getDocuments(source: FirestoreSource = .default, completion: @escaping (QuerySnapshot?, Error?) -> Void) {
        readInBackground(answeringOn: firestore.callbackQueue, { try self.readSnapshot() }) { result in
            completion(try? result.get(), result.failure)
        }
    }

    @discardableResult
    nonisolated(nonsending) public func getDocuments(source: FirestoreSource = .default) async throws -> QuerySnapshot {
        try await onIOQueue(cancellable: true) { try self.readSnapshot() }
    }

    // MARK: Listening

    /// Calls `listener` at once with every matching document as `.added`, then with each change.
    @discardableResult
    public func addSnapshotListener(_ listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(progress: nil, listener)
    }

    /// Ours: as `addSnapshotListener`, and while a large collection is first read, `progress`
    /// is called after each slice of the read with how far it has got and the documents of
    /// that slice, before the first snapshot.
    @discardableResult
    public func addSnapshotListener(progress: ((LoadProgress) -> Void)?,
                                    _ listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        addSnapshotListener(includingMetadataChanges: false, progress: progress, listener)
    }

    /// `includingMetadataChanges`: also when only `hasPendingWrites` changed.
    func addSnapshotListener(includingMetadataChanges: Bool, progress: ((LoadProgress) -> Void)?,
                             _ listener: @escaping (QuerySnapshot?, Error?) -> Void) -> ListenerRegistration {
        let subscription = QuerySubscription(query: self, includesMetadataChanges: includingMetadataChanges, progress: progress, listener: listener)
        do {
            try checkRunnable()
            if definition.offset > 0 { throw FirestoreErrorCode(.unimplemented, "A query with an offset cannot be listened to: listen from a cursor instead.") }
        } catch {
            subscription.deliver(error: error)
            return subscription
        }
        firestore.watchers.subscribe(subscription, to: firestore.queryingStorage?.watches(definition) == true ? .query(definition) : Firestore.WatchKey.query(definition).broadened)
        return subscription
    }
}

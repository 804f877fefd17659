/// What a query listener keeps between ticks: every matching document in the query's order,
/// and the page its limit shows. A tick's changes cost a binary search each, plus a diff of
/// the page when the query has a limit, so a change in a collection of 100,000 documents
/// costs about what it touches, not a new sort.
final class LiveQueryResults {
    let evaluator: QueryEvaluator
    /// Every matching document, sorted: without a limit, what the listener was last sent.
    /// Where a changed one was is found from the snapshot the watcher says it held before,
    /// so no table by key is kept (at a million documents, 48 MiB, copied at the first change).
    private var matching: [QueryDocumentSnapshot] = []
    /// With a limit, what the listener was last sent.
    private var page: [QueryDocumentSnapshot] = []

    /// `inIDOrder`: the same documents in id order, when the watcher has them so (a first read).
    init(evaluator: QueryEvaluator, documents: [QueryDocumentSnapshot], inIDOrder: [QueryDocumentSnapshot]? = nil) {
        self.evaluator = evaluator
        rebuild(from: documents, inIDOrder: inIDOrder)
    }

    private var isLimited: Bool { evaluator.definition.limit != nil }

    /// What the listener was last sent. Without a limit it is `matching` itself, not a copy, so
    /// a change updates it in place instead of copying 100,000 references.
    var view: [QueryDocumentSnapshot] { isLimited ? page : matching }

    private func rebuild(from documents: [QueryDocumentSnapshot], inIDOrder: [QueryDocumentSnapshot]? = nil) {
        let everything = evaluator.matchesEverything
        // Documents in id order stay so through a filter, and a query by id finds them sorted
        // in one pass.
        if let inIDOrder {
            matching = evaluator.sorted(inIDOrder: everything ? inIDOrder : inIDOrder.filter(evaluator.matches))
        } else {
            matching = evaluator.sorted(everything ? documents : documents.filter(evaluator.matches))
        }
        page = isLimited ? Array(evaluator.window(of: matching)) : []
    }

    /// Takes the documents as they are now (`changed`: the keys that changed, with the
    /// snapshots held when these results were last updated; nil for "any"); returns the
    /// changes to send, or nil when the results stay as they were.
    func update(documents: WatchedDocuments, changed: WatchedDocuments.Changes?) -> [DocumentChange]? {
        guard let changed else {
            let oldView = view
            rebuild(from: documents.all)
            return send(Self.diff(oldView, view), to: oldView)
        }
        var removed: [QueryDocumentSnapshot] = []
        var added: [QueryDocumentSnapshot] = []
        var modified: [(old: QueryDocumentSnapshot, new: QueryDocumentSnapshot)] = []
        for (key, held) in changed {
            let before = held.flatMap { evaluator.matches($0) ? $0 : nil }
            let now = documents[key].flatMap { evaluator.matches($0) ? $0 : nil }
            if before === now { continue }
            if isLimited {
                if let before { matching.remove(at: ChangeSteps.position(of: before, in: matching, evaluator)) }
                if let now { matching.insert(now, at: ChangeSteps.insertionIndex(of: now, in: matching, evaluator)) }
                continue
            }
            switch (before, now) {
            case let (before?, now?): modified.append((before, now))
            case let (before?, nil): removed.append(before)
            case let (nil, now?): added.append(now)
            case (nil, nil): break
            }
        }
        guard isLimited else {
            guard !removed.isEmpty || !added.isEmpty || !modified.isEmpty else { return nil }
            return ChangeSteps.apply(removed: removed, added: added, modified: modified, to: &matching, evaluator: evaluator)
        }
        return send(Self.diff(page, Array(evaluator.window(of: matching))), to: page)
    }

    /// The changes from `oldView` (the page, or a copy of what was sent), applied to it to make
    /// the new view; nil when there are none.
    private func send(_ diff: ([QueryDocumentSnapshot], [QueryDocumentSnapshot], [(old: QueryDocumentSnapshot, new: QueryDocumentSnapshot)]),
                      to oldView: [QueryDocumentSnapshot]) -> [DocumentChange]? {
        let (removed, added, modified) = diff
        guard !removed.isEmpty || !added.isEmpty || !modified.isEmpty else {
            if isLimited { page = Array(evaluator.window(of: matching)) }
            return nil
        }
        var new = oldView
        let changes = ChangeSteps.apply(removed: removed, added: added, modified: modified, to: &new, evaluator: evaluator)
        if isLimited { page = new } else { matching = new }
        return changes
    }

    /// What differs between two pages, matching documents by path.
    private static func diff(_ old: [QueryDocumentSnapshot], _ new: [QueryDocumentSnapshot])
        -> ([QueryDocumentSnapshot], [QueryDocumentSnapshot], [(old: QueryDocumentSnapshot, new: QueryDocumentSnapshot)]) {
        if old.isEmpty { return ([], new, []) }
        var oldByPath: [ResourcePath: QueryDocumentSnapshot] = [:]
        oldByPath.reserveCapacity(old.count)
        for document in old { oldByPath[document.reference.resourcePath] = document }
        var added: [QueryDocumentSnapshot] = []
        var modified: [(old: QueryDocumentSnapshot, new: QueryDocumentSnapshot)] = []
        for document in new {
            if let before = oldByPath.removeValue(forKey: document.reference.resourcePath) {
                if before !== document { modified.append((before, document)) }
            } else {
                added.append(document)
            }
        }
        return (Array(oldByPath.values), added, modified)
    }
}

import DocumentStore

/// The collections as listed: the top-level ones (a tab for each one found while running, gone
/// tabs marked, and on a server whether it answers), and a document's, which `c` opens as tabs.
@MainActor
struct CollectionsUpdate {
    /// What the tabs of collections found are made on.
    let store: Firestore
    /// On a server: a listing says whether it answers.
    let connection: ServerConnection?
    /// The writes in flight: the tabs of their collections stay.
    let writes: PendingWrites

    /// Takes in a look at the collections (`CollectionListing`): the selected document's, which
    /// its detail names, and the top-level ones. Answers `.unchanged` when the tabs and the
    /// detail stay as they were, so no frame is needed.
    func listed(_ listing: CollectionListing, in state: inout AppState) -> Reply {
        if let last = state.lastListingBegan, listing.began < last { return Reply(outcome: .unchanged) }
        state.lastListingBegan = listing.began
        var changed = false
        if let selected = listing.selected, state.documentCollections.map({ $0 != selected }) ?? true {
            state.documentCollections = selected
            changed = true
        }
        var reply = Reply()
        switch listing.collections {
        case .success(let ids):
            if let connection, connection.answered(forgetting: state.tabSet.all) { reply.notice = "Back online: \(connection.server)" }
            let dropped = dropEmptied(present: Set(ids), in: &state)
            if !dropped.isEmpty {
                changed = true
                let tabs = dropped.count == 1 ? "the \(dropped[0]) tab" : "the tabs \(dropped.joined(separator: ", "))"
                reply.fallbackNotice = "Closed \(tabs): no documents left (Firestore has no empty collections)"
            }
            let before = Set(state.tabSet.all.map(\.collectionID))
            changed = state.tabSet.take(listed: ids, refilled: listing.refilled, store: store) || changed
            reply.effects += sizing(state.tabSet.all.map(\.collectionID).filter { !before.contains($0) }, in: &state)
        case .failure(let error):
            connection?.note(error)
        }
        reply.outcome = changed ? .keepRunning : .unchanged
        return reply
    }

    /// Drops the tabs of the collections emptied since they held documents
    /// (`CollectionTabs.dropEmptied`), but those a form, a prompt or a write is on: the
    /// shown tab while anything but the list is, the form's tab, the writes' collections.
    private func dropEmptied(present: Set<String>, in state: inout AppState) -> [String] {
        var inUse = writes.collectionPaths
        if let form = state.mode.form { inUse.insert(form.tabID) }
        if case .browse = state.mode {} else { inUse.insert(state.tab.collectionID) }
        let shown = state.tab
        let dropped = state.tabSet.dropEmptied(present: present, inUse: inUse)
        for path in dropped { state.lists.states[path] = nil }
        if state.tab !== shown { state.showsLookup = false }
        return dropped
    }

    /// `c`'s listing back: each collection of the document becomes a tab (once), after the
    /// others so the numbers of those stay, and the first of them is shown.
    func opened(collectionsOf reference: DocumentReference, _ listed: Result<[String], any Error>, in state: inout AppState) -> Reply {
        let ids: [String]
        switch listed {
        case .success(let listed): ids = listed.sorted(by: CollectionTabs.precedes)
        case .failure(let error): return Reply(notice: "Cannot list the collections of \(reference.path): \(error)")
        }
        state.documentCollections = (reference.path, ids)
        let paths = ids.map { "\(reference.path)/\($0)" }
        guard let first = paths.first else { return Reply(notice: "\(reference.path) has no collections") }
        let new = paths.filter { path in !state.tabSet.all.contains { $0.collectionID == path } }
        state.tabSet.add(paths, store: store)
        let effects = sizing(new, in: &state)
        state.switchTab(to: state.tabSet.all.firstIndex { $0.collectionID == first } ?? state.tabSet.active)
        return Reply(notice: ids.count == 1 ? "Opened \(first)"
            : "Opened the \(ids.count) collections of \(reference.path): \(ids.joined(separator: ", "))", effects: effects)
    }

    /// On a server, the new tabs of these collections wait to listen until counted
    /// (`CollectionTabs.sized`): the effects that count them, one each so each tab starts as
    /// soon as its own count is in, the shown tab's first. On a folder, nothing.
    func sizing(_ paths: [String], in state: inout AppState) -> [Effect] {
        guard connection != nil, !paths.isEmpty else { return [] }
        state.tabSet.awaitSize(of: paths)
        let shown = state.tabSet.shown.collectionID
        return (paths.filter { $0 == shown } + paths.filter { $0 != shown })
            .map { .sizeCollection(store, $0, limit: CollectionTabs.windowThreshold) }
    }
}

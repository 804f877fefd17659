import DocumentStore
import ShelfModels

/// The tabs in their order, and which is shown: the known collections first, then those found
/// while running (made by another program) in byte order of names, then the collections of
/// documents opened with `c`, so the numbers of the earlier tabs stay. A tab listens while
/// shown (some keep listening after). A collection emptied of its documents loses its tab, as
/// Firestore has no empty collections, but for the guide's known ones.
@MainActor
struct CollectionTabs {
    private(set) var all: [CollectionTab]
    private(set) var active = 0
    /// On a database server, the collections (paths) being counted: a tab starts listening
    /// once its collection's size is known, as a window of a query past `windowThreshold`
    /// documents (`sized`), so no list starts reading a collection it will not hold.
    private(set) var awaitingSize: Set<String> = []
    /// How many documents a list on a server holds whole; past it, the list is a window.
    static let windowThreshold = 10_000
    /// The tabs (paths) seen holding documents: one emptied since is dropped (`dropEmptied`).
    private var heldDocuments: Set<String> = []
    /// Top-level collections whose tab was dropped when they were emptied while their folder
    /// stayed (a folder outlives its documents): listed, they get a tab again only once they
    /// hold a document (`CollectionListing.refilled`).
    private(set) var emptied: Set<String> = []

    /// The tabs, the first of them to be shown (`shown.show()` starts it).
    init(_ tabs: [CollectionTab]) { all = tabs }

    var shown: CollectionTab { all[active] }

    /// Shows the tab at `index`; returns whether that changed the tab shown.
    mutating func show(_ index: Int) -> Bool {
        guard index != active, all.indices.contains(index) else { return false }
        shown.hide()
        active = index
        if !awaitingSize.contains(shown.collectionID) { shown.show() }
        return true
    }

    /// The collections of these tabs are being counted: they listen once `sized` says how
    /// large they are.
    mutating func awaitSize(of paths: [String]) { awaitingSize.formUnion(paths) }

    /// Takes in whether a collection counted is too large to hold whole: its tab then becomes
    /// a window of a query (`CollectionTab.windowed()`); shown, it starts listening.
    mutating func sized(_ path: String, isLarge: Bool) {
        guard awaitingSize.remove(path) != nil else { return }
        if isLarge, let index = all.firstIndex(where: { $0.collectionID == path }), let window = all[index].windowed() {
            all[index] = window
        }
        if path == shown.collectionID { shown.show() }
    }

    /// Notes which tabs hold documents now, for `dropEmptied` (before each frame: the rows
    /// follow the listeners).
    mutating func noteHeldDocuments() {
        for tab in all where tab.isLoaded && tab.documentCount > 0 { heldDocuments.insert(tab.collectionID) }
    }

    /// Drops the tabs of collections emptied since they held documents, as Firestore has no
    /// empty collection: a top-level one whose folder is still listed (`present`; one whose
    /// folder went says it is gone instead), or a document's. The guide's known tabs stay
    /// (they are the sample's screens, empty or not), and so do those in `inUse` (a form or a
    /// write on them), until they are no longer. The tab shown goes to the one before it.
    /// Returns the paths dropped.
    mutating func dropEmptied(present: Set<String>, inUse: Set<String>) -> [String] {
        let known = Set(KnownCollection.allCases.map(\.rawValue))
        let dropped = all.filter { tab in
            let id = tab.collectionID
            return !known.contains(id) && (tab.isSubcollection || present.contains(id)) && !inUse.contains(id)
                && heldDocuments.contains(id) && tab.isLoaded && tab.documentCount == 0
        }
        guard !dropped.isEmpty else { return [] }
        let current = shown
        let shownIsDropped = dropped.contains { $0 === current }
        if shownIsDropped { current.hide() }
        var index = active
        for tab in dropped {
            guard let position = all.firstIndex(where: { $0 === tab }) else { continue }
            all.remove(at: position)
            if position <= index { index -= 1 }
            heldDocuments.remove(tab.collectionID)
            awaitingSize.remove(tab.collectionID)
            if !tab.isSubcollection { emptied.insert(tab.collectionID) }
        }
        active = shownIsDropped ? max(0, index) : all.firstIndex { $0 === current } ?? 0
        if shownIsDropped && !awaitingSize.contains(shown.collectionID) { shown.show() }
        return dropped.map(\.collectionID)
    }

    /// Takes in the top-level collections listed now: a tab whose folder went says it is gone
    /// (and stops saying so when it is back), and a collection not shown yet gets a tab, but
    /// one whose tab was dropped when emptied (`emptied`) until it is `refilled`.
    /// Returns whether the tabs changed.
    mutating func take(listed: [String], refilled: Set<String> = [], store: Firestore) -> Bool {
        var changed = false
        let known = Set(KnownCollection.allCases.map(\.rawValue))
        let present = Set(listed)
        // One removed (or refilled) since is no longer kept out: a folder made again is new.
        emptied = emptied.intersection(present).subtracting(refilled)
        for tab in all where !known.contains(tab.collectionID) && !tab.isSubcollection
            && tab.isGone == present.contains(tab.collectionID) {
            tab.isGone.toggle()
            changed = true
        }
        let shownIDs = Set(all.map(\.collectionID))
        let new = listed.filter { !known.contains($0) && !shownIDs.contains($0) && !emptied.contains($0) }
        guard !new.isEmpty else { return changed }
        let current = shown
        for id in new {
            let position = all.firstIndex {
                $0.isSubcollection || (!known.contains($0.collectionID) && Self.precedes(id, $0.collectionID))
            } ?? all.count
            all.insert(RawTab.make(store: store, collectionID: id), at: position)
        }
        active = all.firstIndex { $0 === current } ?? 0
        return true
    }

    /// Adds a tab, after the others, for each of these collections (paths) not shown yet.
    mutating func add(_ paths: [String], store: Firestore) {
        for path in paths where !all.contains(where: { $0.collectionID == path }) {
            all.append(RawTab.make(store: store, collectionID: path))
        }
    }

    /// Byte order of names, as Firestore orders ids.
    nonisolated static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}

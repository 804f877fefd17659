import DocumentStore
import ShelfModels

/// The tabs in their order, and which is shown: the known collections first, then those found
/// while running (made by another program) in byte order of names, then the collections of
/// documents opened with `c`, so the numbers of the earlier tabs stay. A tab listens while
/// shown (some keep listening after).
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

    /// Takes in the top-level collections listed now: a tab whose folder went says it is gone
    /// (and stops saying so when it is back), and a collection not shown yet gets a tab.
    /// Returns whether the tabs changed.
    mutating func take(listed: [String], store: Firestore) -> Bool {
        var changed = false
        let known = Set(KnownCollection.allCases.map(\.rawValue))
        let present = Set(listed)
        for tab in all where !known.contains(tab.collectionID) && !tab.isSubcollection
            && tab.isGone == present.contains(tab.collectionID) {
            tab.isGone.toggle()
            changed = true
        }
        let shownIDs = Set(all.map(\.collectionID))
        let new = listed.filter { !known.contains($0) && !shownIDs.contains($0) }
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

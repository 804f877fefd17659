import DocumentStore
import Foundation

/// `u` and `Ctrl-R`: the changes Shelf made (newest last), and the changes undoing made in
/// turn, to redo them. A new change forgets what could be redone, as in vim and visidata.
/// Undoing and redoing are one operation: reverting a change, which is itself a change.
struct UndoHistory {
    /// One change to one document: the document as read just before it and just after it
    /// (nil: no document).
    struct Change {
        let reference: DocumentReference
        let before: DocumentSnapshot?
        let after: DocumentSnapshot?

        var path: String { reference.path }

        /// The fields the change set, added or removed, by name.
        var fieldsSet: [String] {
            guard let before else { return after.map { $0.namesOfFieldsChanged(since: nil).sorted() } ?? [] }
            return before.namesOfFieldsChanged(since: after).sorted()
        }
    }

    /// The document as read just before a write, for undo.
    enum Before: Sendable {
        /// The write makes a new document: there was none.
        case none
        case read(DocumentSnapshot)
        /// It could not be read (nor, then, put back).
        case unknown

        init(reading reference: DocumentReference) {
            self = (try? reference.readDocument()).map(Before.read) ?? .unknown
        }
    }

    /// The document is no longer as the change left it: another program changed it since,
    /// or deleted it.
    struct ChangedSince: Error {
        let isGone: Bool
    }

    /// Entries kept each way; the oldest go first.
    static let limit = 100

    private var undoEntries: [Change] = []
    private var redoEntries: [Change] = []

    /// A change Shelf just made (nil: one that cannot be undone, which forgets what could be
    /// redone all the same).
    mutating func record(_ change: Change?) {
        redoEntries = []
        if let change { Self.push(change, onto: &undoEntries) }
    }

    mutating func popUndo() -> Change? { undoEntries.popLast() }
    mutating func popRedo() -> Change? { redoEntries.popLast() }
    mutating func pushUndo(_ change: Change) { Self.push(change, onto: &undoEntries) }
    mutating func pushRedo(_ change: Change) { Self.push(change, onto: &redoEntries) }

    private static func push(_ change: Change, onto changes: inout [Change]) {
        changes.append(change)
        if changes.count > limit { changes.removeFirst(changes.count - limit) }
    }
}

extension UndoHistory.Change {
    /// The change a write just made to `reference`, which is read again to know what it left;
    /// nil when its earlier state is unknown (a file that could not be read): it cannot be
    /// undone. Reads the store: the effect runner calls it, off the main thread.
    static func made(to reference: DocumentReference, before: UndoHistory.Before) -> UndoHistory.Change? {
        let earlier: DocumentSnapshot?
        switch before {
        case .none: earlier = nil
        case .read(let snapshot): earlier = snapshot
        case .unknown: return nil
        }
        guard earlier?.readError == nil, let after = try? reference.readDocument(), after.readError == nil else { return nil }
        return UndoHistory.Change(reference: reference, before: earlier.flatMap { $0.exists ? $0 : nil }, after: after.exists ? after : nil)
    }

    /// Puts the document back as it was before the change, in one transaction, and returns
    /// the change that made (what redoing, or undoing the redo, reverts). When the document is
    /// no longer as the change left it, throws `ChangedSince` unless `evenIfChangedSince`;
    /// then only the fields the change set go back, onto what is there now, so another
    /// program's fields and values stay (undoing an add still removes the document).
    func revert(evenIfChangedSince: Bool) throws -> UndoHistory.Change {
        let replaced = try reference.firestore.runTransactionNow { transaction -> DocumentSnapshot? in
            let read = try transaction.getDocument(reference)
            if let unreadable = read.readError { throw unreadable }
            let current = read.exists ? read : nil
            let asLeft = read.holdsTheSame(as: after)
            guard asLeft || evenIfChangedSince else { throw UndoHistory.ChangedSince(isGone: current == nil) }
            var fields = before?.data()
            if !asLeft, let current, let earlier = fields {
                fields = current.data() ?? [:]
                for name in fieldsSet { fields?[name] = earlier[name] }
            }
            if let fields {
                transaction.setData(fields, forDocument: reference)
            } else {
                transaction.deleteDocument(reference)
            }
            return current
        }
        let now = try reference.readDocument()
        return UndoHistory.Change(reference: reference, before: replaced, after: now.exists ? now : nil)
    }
}

import DocumentStore
import Observation

/// The writes Shelf has started and not yet heard back from, oldest first, and what waits for
/// them. Observable, so the status line's "Saving books/dune…" comes and goes between keys.
@Observable @MainActor
final class PendingWrites {
    /// A write in flight and what its result is for.
    struct Write {
        let write: StoreWrite
        let purpose: Purpose
    }

    enum Purpose {
        /// The form closed when saved; it comes back, as typed, if the save fails.
        case save(FormSession)
        case delete(tabID: String)
        /// `u` (or `Ctrl-R` when `redo`) reverting this change.
        case revert(UndoHistory.Change, redo: Bool)
    }

    /// A finished write's news that needs the user's answer or hands their text back: shown
    /// once they are at the list, never over a form or a question they are in.
    enum Interruption {
        case formBack(FormSession, notice: String)
        case undoConflict(UndoHistory.Change, redo: Bool, isGone: Bool)
    }

    private(set) var inFlight: [Write] = []
    var interruptions: [Interruption] = []
    /// `u` (false) and `Ctrl-R` (true) pressed while writes were in flight: each takes the
    /// history as those writes leave it, so it waits for them.
    var waitingReverts: [Bool] = []
    /// `q` or Ctrl-C while writes were in flight: Shelf quits once they have finished (and
    /// none failed).
    var quitWhenDone = false

    var isEmpty: Bool { inFlight.isEmpty }

    func append(_ write: Write) { inFlight.append(write) }
    func removeFirst() -> Write? { inFlight.isEmpty ? nil : inFlight.removeFirst() }

    /// Whether a write of the document is in flight.
    func isWriting(_ reference: DocumentReference) -> Bool { inFlight.contains { $0.write.reference == reference } }

    /// The form of a save that failed or has not finished, while it holds typed text: its text
    /// is in no document yet.
    var unsavedSession: FormSession? {
        for case .formBack(let session, _) in interruptions where session.isDirty { return session }
        for case .save(let session) in inFlight.map(\.purpose) where session.isDirty { return session }
        return nil
    }

    /// The collections (paths) of the writes in flight and of the forms handed back: their
    /// tabs stay while these need them.
    var collectionPaths: Set<String> {
        var paths = Set(inFlight.map(\.write.reference.parent.path))
        for case .formBack(let session, _) in interruptions { paths.insert(session.tabID) }
        return paths
    }

    /// The status line while writes are in flight: "Saving books/dune…", and what waits.
    var progress: String? {
        guard let first = inFlight.first else { return nil }
        var text = first.progress
        if inFlight.count > 1 { text += " (\(inFlight.count - 1) more after it)" }
        if !waitingReverts.isEmpty { text += "; then \(waitingReverts.last! ? "redo" : "undo")" }
        if quitWhenDone { text += "; then quitting" }
        return text
    }
}

extension PendingWrites.Write {
    /// "saving books/dune", "deleting books/dune", "undoing books/dune".
    var activity: String {
        let verb = switch purpose {
        case .save: "saving"
        case .delete: "deleting"
        case .revert(_, let redo): redo ? "redoing" : "undoing"
        }
        return "\(verb) \(write.reference.path)"
    }

    /// The status line's "Saving books/dune…".
    var progress: String { activity.prefix(1).uppercased() + activity.dropFirst() + "…" }
}

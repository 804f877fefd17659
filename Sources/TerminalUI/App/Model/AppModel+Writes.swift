import DocumentStore
import Foundation

/// Saves, deletes, undo and redo: each key starts a write as an effect and returns at once;
/// the write's result comes back later (`finished`) and says what it says today: "Saved …" or
/// "Not saved: …", the change recorded for `u`, the selection on the document, and on failure
/// the form back with what was typed.
extension AppModel {
    func saveForm(_ session: FormSession, overwrite: Bool = false) {
        var session = session
        guard session.validate(all: true) else {
            state.mode = .form(session)
            notice = "Not saved: fix the marked fields first"
            return
        }
        if !overwrite, let id = session.documentID, let conflict = conflict(for: session, id: id) {
            state.mode = .confirm(.conflict(session, deleted: conflict))
            return
        }
        let write: FormWrite
        do {
            write = try session.spec.save(session.widget.values)
        } catch {
            notice = "Not saved: \(error)"
            state.mode = .form(session)
            return
        }
        // The form closes as a save that worked closes it; a failure brings it back.
        closeForm()
        start(.save(write), for: .save(session))
    }

    /// `d` answered yes.
    func delete(id: String) {
        start(StoreWrite(reference: store.collection(tab.collectionID).document(id), operation: .delete),
              for: .delete(tabID: tab.collectionID))
    }

    /// `u`: reverts the last change not yet undone (an edit's fields go back, a deleted
    /// document comes back, an added one goes); `Ctrl-R` (`redo`) reverts that in turn. A
    /// document changed on disk since is not touched before the same question saving asks.
    /// While writes are in flight it waits for them: the change to revert may be theirs.
    func undoOrRedo(redo: Bool) {
        guard writes.isEmpty else { writes.waitingReverts.append(redo); return }
        guard let change = redo ? state.history.popRedo() : state.history.popUndo() else {
            notice = redo ? "Nothing to redo" : "Nothing to undo"
            return
        }
        revert(change, redo: redo, evenIfChangedSince: false)
    }

    func revert(_ change: UndoHistory.Change, redo: Bool, evenIfChangedSince: Bool) {
        start(StoreWrite(reference: change.reference, operation: .revert(change, evenIfChangedSince: evenIfChangedSince)),
              for: .revert(change, redo: redo))
    }

    /// Starts a write; the status line says so (`PendingWrites.progress`) until it finishes.
    private func start(_ write: StoreWrite, for purpose: PendingWrites.Purpose) {
        writes.append(PendingWrites.Write(write: write, purpose: purpose))
        run(.write(write))
    }

    /// A write's result, back on the main thread, in the order the writes were started.
    func finished(_ outcome: Result<UndoHistory.Change?, any Error>) -> Outcome {
        guard let pending = writes.removeFirst() else { return .keepRunning }
        let reference = pending.write.reference
        switch (pending.purpose, outcome) {
        case (.save(let session), .success(let change)):
            noteWrite(nil, in: session.tabID)
            state.history.record(change)
            notice = session.documentID == nil ? "Added \(session.tabID)/\(reference.documentID)" : "Saved \(session.tabID)/\(reference.documentID)"
            state.lists.selectAsSoonAsListed(reference.documentID, in: session.tabID)
        case (.save(let session), .failure(let error)):
            let message = "Not saved: \(noteWrite(error, in: session.tabID))"
            notice = message
            writes.interruptions.append(.formBack(session, notice: message))
        case (.delete(let tabID), .success(let change)):
            noteWrite(nil, in: tabID)
            notice = "Deleted \(tabID)/\(reference.documentID)" + (change == nil ? "" : " (u undoes)")
            state.history.record(change)
        case (.delete(let tabID), .failure(let error)):
            notice = "Not deleted: \(noteWrite(error, in: tabID))"
        case (.revert(let change, let redo), .success(let reverted)):
            noteWrite(nil, in: nil)
            if reverted?.after != nil {
                notice = redo ? "Redone: \(change.path) written again" : "Restored \(change.path)"
                state.lists.selectAsSoonAsListed(change.reference.documentID, in: change.reference.parent.collectionID)
            } else {
                notice = redo ? "Redone: \(change.path) deleted again" : "Removed \(change.path): the add is undone"
            }
            if let reverted { if redo { state.history.pushUndo(reverted) } else { state.history.pushRedo(reverted) } }
        case (.revert(let change, let redo), .failure(let changed as UndoHistory.ChangedSince)):
            writes.interruptions.append(.undoConflict(change, redo: redo, isGone: changed.isGone))
        case (.revert(let change, let redo), .failure(let error)):
            if redo { state.history.pushRedo(change) } else { state.history.pushUndo(change) }
            noteWrite(error, in: nil)
            notice = "Not \(redo ? "redone" : "undone"): \(error)"
        }
        return continueAfterWrites()
    }

    /// What waited for the list or for the writes: a form handed back, a question, the undos
    /// pressed meanwhile; then quitting, when asked for meanwhile and every write worked. Done
    /// after each key and each finished write.
    @discardableResult
    func continueAfterWrites() -> Outcome {
        let done = writes.isEmpty && writes.interruptions.isEmpty && writes.waitingReverts.isEmpty
        // Ctrl-C quits from any mode.
        if done && writes.quitWhenDone { return .quit }
        guard case .browse = state.mode else { return .keepRunning }
        if !writes.interruptions.isEmpty {
            // A failure the user must see cancels quitting.
            writes.quitWhenDone = false
            switch writes.interruptions.removeFirst() {
            case .formBack(let session, let message):
                state.mode = .form(session)
                notice = message
            case .undoConflict(let change, let redo, let isGone):
                state.mode = .confirm(.undoConflict(change, redo: redo, isGone: isGone))
            }
            return .keepRunning
        }
        while writes.isEmpty, !writes.waitingReverts.isEmpty {
            undoOrRedo(redo: writes.waitingReverts.removeFirst())
        }
        return writes.isEmpty && writes.waitingReverts.isEmpty && writes.quitWhenDone ? .quit : .keepRunning
    }

    /// `q`, or Ctrl-C with no typed text at stake: quits at once when no write is in flight;
    /// otherwise once they have all finished (the status line says so). Asked again while
    /// waiting, it quits at once: the app then waits a little for the writes and says on
    /// leaving which did not finish (`finishWrites`).
    func quitAfterWrites() -> Outcome {
        guard !writes.isEmpty, !writes.quitWhenDone else { return .quit }
        writes.quitWhenDone = true
        return .keepRunning
    }

    /// For quitting: waits up to `timeout` for the writes in flight and takes in their results
    /// (a failed save's form then counts for `formDraft`); returns what each write still in
    /// flight was doing ("saving books/dune"), for the app to say as it leaves.
    public func finishWrites(within timeout: DispatchTimeInterval) -> [String] {
        writes.quitWhenDone = false
        let saved = afterEffect
        afterEffect = nil  // the app is already quitting
        defer { afterEffect = saved }
        _ = effects.finish(within: timeout)
        return writes.inFlight.map(\.activity)
    }

    /// A write's outcome for the server's state and the tab's message: one that worked shows
    /// the server answers; one that failed because it could not be reached says offline at
    /// once. Returns how the failure reads.
    @discardableResult
    private func noteWrite(_ error: (any Error)?, in tabID: String?) -> String {
        if let error {
            if ServerConnection.unreachableReason(error) != nil { connection?.note(error) }
        } else if connection != nil {
            serverAnswered()
        }
        let tab = tabs.first { $0.collectionID == tabID }
        return tab?.noteWrite(error) ?? error.map { "\($0)" } ?? ""
    }

    /// The form a draft keeps on SIGTERM or SIGHUP: the open one when it holds typed text,
    /// else a save's that failed or has not finished.
    var sessionToKeep: FormSession? {
        if let form, form.isDirty { return form }
        return unsavedSession
    }

    /// The form of a save that failed or has not finished, while it holds typed text: its text
    /// is in no document yet.
    var unsavedSession: FormSession? {
        for case .formBack(let session, _) in writes.interruptions where session.isDirty { return session }
        for case .save(let session) in writes.inFlight.map(\.purpose) where session.isDirty { return session }
        return nil
    }
}

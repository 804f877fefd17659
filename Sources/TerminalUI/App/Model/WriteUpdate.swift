import DocumentStore

/// Saves, deletes, undo and redo as writes: starting one records it in `writes` and asks for
/// its effect, so the key returns at once; its result (`finished`) says what it says today:
/// "Saved …" or "Not saved: …", the change recorded for `u`, the selection on the document,
/// and on failure the form back with what was typed.
@MainActor
struct WriteUpdate {
    let store: Firestore
    /// The writes in flight and what waits for them: this update's own state, kept by the
    /// model as the status line observes it between keys.
    let writes: PendingWrites
    /// On a server: a write's result says whether it answers.
    let connection: ServerConnection?

    /// Starts a write; the status line says so (`PendingWrites.progress`) until it finishes.
    func start(_ write: StoreWrite, for purpose: PendingWrites.Purpose) -> Reply {
        writes.append(PendingWrites.Write(write: write, purpose: purpose))
        return Reply(effects: [.write(write)])
    }

    /// `d` answered yes: deletes the shown tab's document `id`.
    func delete(id: String, in state: AppState) -> Reply {
        start(StoreWrite(reference: store.collection(state.tab.collectionID).document(id), operation: .delete),
              for: .delete(tabID: state.tab.collectionID))
    }

    /// `u`: reverts the last change not yet undone (an edit's fields go back, a deleted
    /// document comes back, an added one goes); `Ctrl-R` (`redo`) reverts that in turn. A
    /// document changed on disk since is not touched before the same question saving asks.
    /// While writes are in flight it waits for them: the change to revert may be theirs.
    func undoOrRedo(redo: Bool, in state: inout AppState) -> Reply {
        guard writes.isEmpty else { writes.waitingReverts.append(redo); return Reply() }
        guard let change = redo ? state.history.popRedo() : state.history.popUndo() else {
            return Reply(notice: redo ? "Nothing to redo" : "Nothing to undo")
        }
        return revert(change, redo: redo, evenIfChangedSince: false)
    }

    func revert(_ change: UndoHistory.Change, redo: Bool, evenIfChangedSince: Bool) -> Reply {
        start(StoreWrite(reference: change.reference, operation: .revert(change, evenIfChangedSince: evenIfChangedSince)),
              for: .revert(change, redo: redo))
    }

    /// A write's result, back on the main thread, in the order the writes were started.
    func finished(_ outcome: Result<UndoHistory.Change?, any Error>, in state: inout AppState) -> Reply {
        guard let pending = writes.removeFirst() else { return Reply() }
        let reference = pending.write.reference
        var reply = Reply()
        switch (pending.purpose, outcome) {
        case (.save(let session), .success(let change)):
            noteWrite(nil, in: session.tabID, of: state)
            state.history.record(change)
            reply.notice = session.documentID == nil ? "Added \(session.tabID)/\(reference.documentID)" : "Saved \(session.tabID)/\(reference.documentID)"
            state.lists.selectAsSoonAsListed(reference.documentID, in: session.tabID)
        case (.save(let session), .failure(let error)):
            let message = "Not saved: \(noteWrite(error, in: session.tabID, of: state))"
            reply.notice = message
            writes.interruptions.append(.formBack(session, notice: message))
        case (.delete(let tabID), .success(let change)):
            noteWrite(nil, in: tabID, of: state)
            reply.notice = "Deleted \(tabID)/\(reference.documentID)" + (change == nil ? "" : " (u undoes)")
            state.history.record(change)
        case (.delete(let tabID), .failure(let error)):
            reply.notice = "Not deleted: \(noteWrite(error, in: tabID, of: state))"
        case (.revert(let change, let redo), .success(let reverted)):
            noteWrite(nil, in: nil, of: state)
            if reverted?.after != nil {
                reply.notice = redo ? "Redone: \(change.path) written again" : "Restored \(change.path)"
                state.lists.selectAsSoonAsListed(change.reference.documentID, in: change.reference.parent.collectionID)
            } else {
                reply.notice = redo ? "Redone: \(change.path) deleted again" : "Removed \(change.path): the add is undone"
            }
            if let reverted { if redo { state.history.pushUndo(reverted) } else { state.history.pushRedo(reverted) } }
        case (.revert(let change, let redo), .failure(let changed as UndoHistory.ChangedSince)):
            writes.interruptions.append(.undoConflict(change, redo: redo, isGone: changed.isGone))
        case (.revert(let change, let redo), .failure(let error)):
            if redo { state.history.pushRedo(change) } else { state.history.pushUndo(change) }
            noteWrite(error, in: nil, of: state)
            reply.notice = "Not \(redo ? "redone" : "undone"): \(error)"
        }
        reply.add(continueAfterWrites(in: &state))
        return reply
    }

    /// What waited for the list or for the writes: a form handed back, a question, the undos
    /// pressed meanwhile; then quitting, when asked for meanwhile and every write worked. Done
    /// after each key and each finished write.
    func continueAfterWrites(in state: inout AppState) -> Reply {
        let done = writes.isEmpty && writes.interruptions.isEmpty && writes.waitingReverts.isEmpty
        // Ctrl-C quits from any mode.
        if done && writes.quitWhenDone { return Reply(outcome: .quit) }
        guard case .browse = state.mode else { return Reply() }
        if !writes.interruptions.isEmpty {
            // A failure the user must see cancels quitting.
            writes.quitWhenDone = false
            switch writes.interruptions.removeFirst() {
            case .formBack(let session, let message):
                state.mode = .form(session)
                return Reply(notice: message)
            case .undoConflict(let change, let redo, let isGone):
                state.mode = .confirm(.undoConflict(change, redo: redo, isGone: isGone))
                return Reply()
            }
        }
        var reply = Reply()
        while writes.isEmpty, !writes.waitingReverts.isEmpty {
            reply.add(undoOrRedo(redo: writes.waitingReverts.removeFirst(), in: &state))
        }
        if writes.isEmpty && writes.waitingReverts.isEmpty && writes.quitWhenDone { reply.outcome = .quit }
        return reply
    }

    /// `q`, or Ctrl-C with no typed text at stake: quits at once when no write is in flight;
    /// otherwise once they have all finished (the status line says so). Asked again while
    /// waiting, it quits at once: the app then waits a little for the writes and says on
    /// leaving which did not finish (`AppModel.finishWrites`).
    func quitAfterWrites() -> Outcome {
        guard !writes.isEmpty, !writes.quitWhenDone else { return .quit }
        writes.quitWhenDone = true
        return .keepRunning
    }

    /// A write's outcome for the server's state and the tab's message: one that worked shows
    /// the server answers; one that failed because it could not be reached says offline at
    /// once. Returns how the failure reads.
    @discardableResult
    private func noteWrite(_ error: (any Error)?, in tabID: String?, of state: AppState) -> String {
        if let error {
            if ServerConnection.unreachableReason(error) != nil { connection?.note(error) }
        } else {
            connection?.answered(forgetting: state.tabSet.all)
        }
        let tab = state.tabSet.all.first { $0.collectionID == tabID }
        return tab?.noteWrite(error) ?? error.map { "\($0)" } ?? ""
    }
}

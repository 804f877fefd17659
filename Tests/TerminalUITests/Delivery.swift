import Dispatch
@testable import DocumentStore
@testable import TerminalUI

extension CollectionReference {
    /// Sends this collection's listeners what the store holds now, with no sleep and no
    /// polling: its watcher looks once more, waited for on the watcher's own queue, and sends
    /// the listeners what changed onto the main queue; a block queued there after those
    /// snapshots returns once they have been taken in.
    func deliverToListeners() async {
        _ = try? firestore.activeWatcher(.collection(collectionPath))?.fresh {}
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
    }
}

extension AppModel {
    /// The shown tab takes in what the store holds now (`deliverToListeners`).
    func deliver() async throws {
        await store.collection(tab.collectionID).deliverToListeners()
    }
}

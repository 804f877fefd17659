import Dispatch
@testable import DocumentStore

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

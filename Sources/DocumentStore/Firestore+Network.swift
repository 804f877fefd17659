import Foundation

/// Firebase's network and lifecycle calls, doing what they can mean on local files: the folder
/// is always reachable, writes are on disk when they return, and there is no cache besides it.
extension Firestore {
    /// Succeeds at once: the files are always there.
    public func enableNetwork(completion: ((Error?) -> Void)? = nil) { answer(completion) }
    nonisolated(nonsending) public func enableNetwork() async throws {}

    /// Succeeds at once and changes nothing: there is no server to disconnect from, and reads
    /// and writes of the files go on, as Firebase's do against its cache while offline.
    public func disableNetwork(completion: ((Error?) -> Void)? = nil) { answer(completion) }
    nonisolated(nonsending) public func disableNetwork() async throws {}

    /// Succeeds at once: every write is on disk when it returns, so none is ever pending.
    public func waitForPendingWrites(completion: ((Error?) -> Void)? = nil) { answer(completion) }
    nonisolated(nonsending) public func waitForPendingWrites() async throws {}

    /// Succeeds and deletes nothing: Firebase clears its local cache, never the server's data, and
    /// here the files are the data itself.
    public func clearPersistence(completion: ((Error?) -> Void)? = nil) { answer(completion) }
    nonisolated(nonsending) public func clearPersistence() async throws {}

    /// Stops every listener of this store; later writes and listeners fail with
    /// `.failedPrecondition`, as on a terminated Firebase instance.
    public func terminate(completion: ((Error?) -> Void)? = nil) {
        terminateNow()
        answer(completion)
    }

    nonisolated(nonsending) public func terminate() async throws { terminateNow() }

    private func answer(_ completion: ((Error?) -> Void)?) {
        guard let completion else { return }
        let callback = Callback(completion)
        callbackQueue.async { callback.function(nil) }
    }
}

import Foundation

/// A store's running watchers, one per thing followed (`Firestore.WatchKey`), shared by every
/// listener of it: kept here, apart from the API, so that adding and removing listeners, a
/// commit showing its writes to the watchers concerned, and terminating the store all meet
/// under one lock. Its lock also guards each watcher's `subscribers`.
final class WatcherRegistry: @unchecked Sendable {
    private struct State {
        var watchers: [Firestore.WatchKey: Watcher] = [:]
        /// Set once the store is terminated: no watcher starts again.
        var isClosed = false
    }

    private let state = Locked(State())

    /// The watcher following `key`, if a listener keeps one running.
    func watcher(for key: Firestore.WatchKey) -> Watcher? {
        state.withLock { $0.watchers[key] }
    }

    /// How many watchers are running; zero once every listener is removed.
    var count: Int { state.withLock { $0.watchers.count } }

    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Adds `subscription` to the watcher of its store for `key`, made and started if none
    /// runs, and delivers its first snapshot; once the store is terminated, an error.
    func subscribe(_ subscription: Subscription, to key: Firestore.WatchKey) {
        let store = subscription.firestore
        let added = state.withLock { state -> Watcher? in
            guard !state.isClosed else { return nil }
            let watcher = state.watchers[key] ?? Watcher(firestore: store, key: key, source: store.backend.changeSource(for: key, store: store))
            if state.watchers[key] == nil {
                state.watchers[key] = watcher
                watcher.start(interval: store.configuration.pollingInterval)
            }
            watcher.subscribers.append(subscription)
            subscription.watcher = watcher  // under the lock, as `remove` reads it
            return watcher
        }
        guard let added else { return subscription.deliver(error: store.terminatedError) }
        added.deliverFirstSnapshot(to: subscription)
    }

    /// Takes `subscription` off its watcher, stopping the watcher when it was the last.
    func remove(_ subscription: Subscription) {
        state.withLock { state in
            guard let watcher = subscription.watcher else { return }
            watcher.subscribers.removeAll { $0 === subscription }
            if watcher.subscribers.isEmpty {
                watcher.stop()
                state.watchers[watcher.key] = nil
            }
        }
    }

    func subscribers(of watcher: Watcher) -> [Subscription] {
        state.withLock { _ in watcher.subscribers }
    }

    /// Removes every listener and stops every watcher, for good.
    func close() {
        let watchers = state.withLock { state -> [Watcher] in
            state.isClosed = true
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers {
            for subscription in subscribers(of: watcher) { subscription.remove() }
            watcher.stop()
        }
    }

    /// Runs `write`, a commit of `writes`, showing it to the watchers of the documents: before
    /// and after, to show the write pending, then committed (`Watcher+LocalCommits`), when
    /// `showingPending`; one that started meanwhile, or every one when nothing is shown
    /// pending, looks at the documents the commit changed.
    func committing(_ writes: [DocumentWrite], showingPending: Bool,
                    _ write: () throws -> [WrittenDocument]) throws -> [WrittenDocument] {
        let paths = writes.map(\.path)
        let showing = showingPending && writes.contains(where: \.isLocalWrite) ? watchers(following: paths) : []
        for watcher in showing { watcher.willCommit(paths) }
        let written: [WrittenDocument]
        do {
            written = try write()
        } catch {
            for watcher in showing { watcher.didNotCommit(paths) }
            throw error
        }
        for watcher in showing { watcher.committed(written, of: writes) }
        let changed = written.filter(\.changed)
        for watcher in watchers(following: changed.map(\.path)) where !showing.contains(where: { $0 === watcher }) {
            watcher.wrote(changed)
        }
        return written
    }

    /// The watchers that may follow the documents at `paths`: a write through the store is
    /// delivered to them at once rather than on the next tick.
    private func watchers(following paths: [ResourcePath]) -> [Watcher] {
        // A bulk writer (`shelf generate`) has no listener: nothing to work out for 500 paths.
        guard !state.withLock({ $0.watchers.isEmpty }) else { return [] }
        var keys = Set(paths.map { Firestore.WatchKey.document($0) })
        for collection in Set(paths.map(\.parent)) {
            keys.insert(.collection(collection))
            keys.insert(.collectionGroup(collection.last))
        }
        // A query followed on its own (a window on a server) is woken by its collection's writes.
        return state.withLock { state in state.watchers.filter { keys.contains($0.key.broadened) }.map(\.value) }
    }
}

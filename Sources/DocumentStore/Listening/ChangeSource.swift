import Foundation

/// What a backend tells a `Watcher` about the key it follows: which documents changed, handed
/// over as read (into `WatchedDocuments`, which decides what differs). A folder checks its
/// files (inotify or the stat sweep), a server announces the paths each commit wrote, a
/// Firestore server pushes its changes; the watcher keeps the documents and delivers.
package protocol ChangeSource: AnyObject, Sendable {
    /// True when the watcher should look on a timer (a folder's polling, a server's retries),
    /// not only when the source wakes it.
    var looksOnTimer: Bool { get }
    /// True once what the source handed over is a state listeners may be shown.
    var isConsistent: Bool { get }
    /// Starts following, under the store's lock: `wake` asks the watcher to look now.
    func start(wake: @escaping @Sendable () -> Void)
    /// The store itself wrote these documents (with their times); the watcher looks next.
    func wrote(_ written: [WrittenDocument])
    /// Hands over, on the watcher's queue, what changed since the last look.
    func look(into documents: WatchedDocuments, for watcher: Watcher) throws
    /// Stops following, under the store's lock: no wake after this.
    func stop()
    /// Frees what following holds besides memory (a watch, a connection's notifications), on
    /// the watcher's queue; a look after this starts over.
    func release()
}

extension ChangeSource {
    package var looksOnTimer: Bool { true }
    package var isConsistent: Bool { true }
    package func start(wake: @escaping @Sendable () -> Void) {}
    package func wrote(_ written: [WrittenDocument]) {}
    package func stop() {}
    package func release() {}
}

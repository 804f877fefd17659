import Foundation

/// Where loading a bundle is, as Firebase's `LoadBundleTaskState`: `error` and `success` are
/// final.
public enum LoadBundleTaskState: Int, Sendable {
    case error = 0
    case inProgress = 1
    case success = 2
}

/// A progress report of loading a bundle, as Firebase's `LoadBundleTaskProgress`.
public final class LoadBundleTaskProgress: NSObject, @unchecked Sendable {  // immutable
    /// How many documents have been loaded.
    public let documentsLoaded: Int
    /// How many documents the bundle holds; 0 if it could not be read.
    public let totalDocuments: Int
    /// How many bytes of the bundle have been read.
    public let bytesLoaded: Int
    /// How many bytes the bundle holds; 0 if it could not be read.
    public let totalBytes: Int
    public let state: LoadBundleTaskState
    /// Why loading failed, when `state` is `.error`.
    let error: Error?

    init(documentsLoaded: Int, totalDocuments: Int, bytesLoaded: Int, totalBytes: Int, state: LoadBundleTaskState, error: Error? = nil) {
        self.documentsLoaded = documentsLoaded
        self.totalDocuments = totalDocuments
        self.bytesLoaded = bytesLoaded
        self.totalBytes = totalBytes
        self.state = state
        self.error = error
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? LoadBundleTaskProgress else { return false }
        return documentsLoaded == other.documentsLoaded && totalDocuments == other.totalDocuments
            && bytesLoaded == other.bytesLoaded && totalBytes == other.totalBytes && state == other.state
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(documentsLoaded)
        hasher.combine(bytesLoaded)
        hasher.combine(state)
        return hasher.finalize()
    }
}

/// Firebase's handle of a bundle observer.
public typealias LoadBundleObserverHandle = Int

/// Loading a bundle, as Firebase's `LoadBundleTask`: observers hear each progress report, the
/// last one `.success` or `.error`, on the store's callback queue. Loading runs in the
/// background from the start, so an observer added after a report hears it first, in order:
/// every observer hears every report once, however soon the loading gets ahead.
public final class LoadBundleTask: NSObject, @unchecked Sendable {
    private let callbackQueue: DispatchQueue
    private let state = Locked(Observers())

    private struct Observers {
        var next = 0
        var reports: [LoadBundleTaskProgress] = []
        /// Each observer, with how many reports it has heard.
        var byHandle: [LoadBundleObserverHandle: (observer: (LoadBundleTaskProgress) -> Void, heard: Int)] = [:]
    }

    init(callbackQueue: DispatchQueue) {
        self.callbackQueue = callbackQueue
    }

    /// Registers `observer`; it hears the reports made so far, then each one to come.
    @discardableResult
    public func addObserver(_ observer: @escaping (LoadBundleTaskProgress) -> Void) -> LoadBundleObserverHandle {
        let handle = state.withLock { state in
            state.next += 1
            state.byHandle[state.next] = (observer, 0)
            return state.next
        }
        callbackQueue.async { self.deliver() }
        return handle
    }

    /// Removes the observer of `handle`; nothing for one already removed.
    public func removeObserverWith(handle: LoadBundleObserverHandle) {
        state.withLock { _ = $0.byHandle.removeValue(forKey: handle) }
    }

    public func removeAllObservers() {
        state.withLock { $0.byHandle = [:] }
    }

    /// Adds a report for the observers, then runs `then` on the callback queue (the
    /// completion, after every observer, as Firebase's).
    func report(_ progress: LoadBundleTaskProgress, then: (() -> Void)? = nil) {
        state.withLock { $0.reports.append(progress) }
        let after = Callback(then)
        callbackQueue.async {
            self.deliver()
            after.function?()
        }
    }

    /// On the callback queue: each observer hears the reports it has not heard, in order.
    private func deliver() {
        let due = state.withLock { state in
            state.byHandle.keys.sorted().compactMap { handle -> ((LoadBundleTaskProgress) -> Void, ArraySlice<LoadBundleTaskProgress>)? in
                guard let entry = state.byHandle[handle], entry.heard < state.reports.count else { return nil }
                state.byHandle[handle]?.heard = state.reports.count
                return (entry.observer, state.reports[entry.heard...])
            }
        }
        for (observer, reports) in due {
            for report in reports { observer(report) }
        }
    }
}

extension LoadBundleTask {
    /// The progress reports as a stream, as Firebase's: it ends after `.success` and throws
    /// the error of `.error`.
    public var taskProgress: AsyncThrowingStream<LoadBundleTaskProgress, Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let handle = addObserver { progress in
                switch progress.state {
                case .inProgress: continuation.yield(progress)
                case .success:
                    continuation.yield(progress)
                    continuation.finish()
                case .error:
                    continuation.finish(throwing: progress.error ?? FirestoreErrorCode(.unknown, "loading the bundle failed"))
                }
            }
            continuation.onTermination = { @Sendable _ in self.removeObserverWith(handle: handle) }
        }
    }
}

import Foundation

/// Firebase's bundles: `loadBundle` writes a bundle's documents into the store (the store is
/// its own cache) and keeps its named queries for `getQuery(named:)` while the store is open.
extension Firestore {
    @discardableResult
    public func loadBundle(_ bundleData: Data) -> LoadBundleTask {
        loadBundle(bundleData, completion: nil)
    }

    @discardableResult
    public func loadBundle(_ bundleData: Data, completion: ((LoadBundleTaskProgress?, Error?) -> Void)?) -> LoadBundleTask {
        BundleLoader(store: self).start({ bundleData }, completion: completion)
    }

    @discardableResult
    public func loadBundle(_ bundleStream: InputStream) -> LoadBundleTask {
        loadBundle(bundleStream, completion: nil)
    }

    @discardableResult
    public func loadBundle(_ bundleStream: InputStream, completion: ((LoadBundleTaskProgress?, Error?) -> Void)?) -> LoadBundleTask {
        let stream = Callback(bundleStream)
        return BundleLoader(store: self).start({ try BundleLoader.bytes(of: stream.function) }, completion: completion)
    }

    /// The final progress: `.success`, with every document loaded; throws why loading failed.
    @discardableResult
    nonisolated(nonsending) public func loadBundle(_ bundleData: Data) async throws -> LoadBundleTaskProgress {
        try await BundleLoader.finalProgress { self.loadBundle(bundleData, completion: $0) }
    }

    @discardableResult
    nonisolated(nonsending) public func loadBundle(_ bundleStream: InputStream) async throws -> LoadBundleTaskProgress {
        let stream = Callback(bundleStream)
        return try await BundleLoader.finalProgress { self.loadBundle(stream.function, completion: $0) }
    }

    /// The named query a loaded bundle holds, or nil.
    public func getQuery(named name: String, completion: @escaping (Query?) -> Void) {
        let query = namedQueries.withLock { $0[name] }
        let callback = Callback(completion)
        callbackQueue.async { callback.function(query) }
    }

    @discardableResult
    nonisolated(nonsending) public func getQuery(named name: String) async -> Query? {
        namedQueries.withLock { $0[name] }
    }
}

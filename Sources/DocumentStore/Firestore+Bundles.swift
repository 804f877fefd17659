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
        startLoading({ bundleData }, completion: completion)
    }

    @discardableResult
    public func loadBundle(_ bundleStream: InputStream) -> LoadBundleTask {
        loadBundle(bundleStream, completion: nil)
    }

    @discardableResult
    public func loadBundle(_ bundleStream: InputStream, completion: ((LoadBundleTaskProgress?, Error?) -> Void)?) -> LoadBundleTask {
        let stream = Callback(bundleStream)
        return startLoading({ try Self.read(stream.function) }, completion: completion)
    }

    /// The final progress: `.success`, with every document loaded; throws why loading failed.
    @discardableResult
    nonisolated(nonsending) public func loadBundle(_ bundleData: Data) async throws -> LoadBundleTaskProgress {
        try await finalProgress { self.loadBundle(bundleData, completion: $0) }
    }

    @discardableResult
    nonisolated(nonsending) public func loadBundle(_ bundleStream: InputStream) async throws -> LoadBundleTaskProgress {
        let stream = Callback(bundleStream)
        return try await finalProgress { self.loadBundle(stream.function, completion: $0) }
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

    // MARK: Loading

    private func startLoading(_ bytes: @escaping @Sendable () throws -> Data,
                              completion: ((LoadBundleTaskProgress?, Error?) -> Void)?) -> LoadBundleTask {
        let task = LoadBundleTask(callbackQueue: callbackQueue)
        let finish = Callback(completion)
        DispatchQueue.global().async {
            let final = self.load(bytes, reporting: task)
            task.report(final) { finish.function?(final, final.error) }
        }
        return task
    }

    /// Reads, checks and writes the bundle, reporting progress to `task`; the final progress.
    private func load(_ bytes: () throws -> Data, reporting task: LoadBundleTask) -> LoadBundleTaskProgress {
        var contents: BundleContents?
        do {
            let read = try BundleContents(try BundleFraming.frames(of: try bytes()), store: self)
            contents = read
            task.report(LoadBundleTaskProgress(documentsLoaded: 0, totalDocuments: read.totalDocuments, bytesLoaded: 0,
                                               totalBytes: read.totalBytes, state: .inProgress))
            try BundleLoader(store: self).write(read.documents) { done in
                task.report(LoadBundleTaskProgress(documentsLoaded: done, totalDocuments: read.totalDocuments,
                                                   bytesLoaded: read.bytesAfterDocument[done - 1], totalBytes: read.totalBytes, state: .inProgress))
            }
            namedQueries.withLock { $0.merge(read.namedQueries) { _, new in new } }
            return LoadBundleTaskProgress(documentsLoaded: read.totalDocuments, totalDocuments: read.totalDocuments,
                                          bytesLoaded: read.totalBytes, totalBytes: read.totalBytes, state: .success)
        } catch {
            return LoadBundleTaskProgress(documentsLoaded: 0, totalDocuments: contents?.totalDocuments ?? 0, bytesLoaded: 0,
                                          totalBytes: contents?.totalBytes ?? 0, state: .error, error: publicError(error))
        }
    }

    private static func read(_ stream: InputStream) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 {
                throw FirestoreErrorCode(.invalidArgument, "the bundle's stream cannot be read: \(stream.streamError?.localizedDescription ?? "unknown error")")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private func finalProgress(_ start: (@escaping (LoadBundleTaskProgress?, Error?) -> Void) -> Void) async throws -> LoadBundleTaskProgress {
        try await withCheckedThrowingContinuation { continuation in
            start { progress, error in
                if let progress, error == nil { continuation.resume(returning: progress) } else {
                    continuation.resume(throwing: error ?? FirestoreErrorCode(.unknown, "loading the bundle failed"))
                }
            }
        }
    }
}

import Foundation

/// Loads a bundle into a store (`Firestore.loadBundle`): reads and checks it whole, then writes
/// its documents through the store's one commit path, so every write is checked as any other.
/// A document changed here after the bundle's source read it is left as it is (the bundle's
/// copy is older), and each commit expects the documents as they were just read, so a write
/// made meanwhile is never overwritten.
struct BundleLoader {
    let store: Firestore
    /// Documents in one commit, as a write batch holds at most.
    private static let chunkSize = WriteBatch.maxWrites
    private static let attempts = 5

    /// Loads on a background queue, reporting progress on the store's callback queue.
    func start(_ bytes: @escaping @Sendable () throws -> Data, completion: ((LoadBundleTaskProgress?, Error?) -> Void)?) -> LoadBundleTask {
        let task = LoadBundleTask(callbackQueue: store.callbackQueue)
        let finish = Callback(completion)
        DispatchQueue.global().async {
            let final = load(bytes, reporting: task)
            task.report(final) { finish.function?(final, final.error) }
        }
        return task
    }

    /// Reads, checks and writes the bundle, reporting progress to `task`; the final progress.
    private func load(_ bytes: () throws -> Data, reporting task: LoadBundleTask) -> LoadBundleTaskProgress {
        var contents: BundleContents?
        do {
            let read = try BundleContents(try BundleFraming.frames(of: try bytes()), store: store)
            contents = read
            task.report(LoadBundleTaskProgress(documentsLoaded: 0, totalDocuments: read.totalDocuments, bytesLoaded: 0,
                                               totalBytes: read.totalBytes, state: .inProgress))
            try write(read.documents) { done in
                task.report(LoadBundleTaskProgress(documentsLoaded: done, totalDocuments: read.totalDocuments,
                                                   bytesLoaded: read.bytesAfterDocument[done - 1], totalBytes: read.totalBytes, state: .inProgress))
            }
            store.namedQueries.withLock { $0.merge(read.namedQueries) { _, new in new } }
            return LoadBundleTaskProgress(documentsLoaded: read.totalDocuments, totalDocuments: read.totalDocuments,
                                          bytesLoaded: read.totalBytes, totalBytes: read.totalBytes, state: .success)
        } catch {
            return LoadBundleTaskProgress(documentsLoaded: 0, totalDocuments: contents?.totalDocuments ?? 0, bytesLoaded: 0,
                                          totalBytes: contents?.totalBytes ?? 0, state: .error, error: publicError(error))
        }
    }

    /// All of a bundle's stream, read on the loading queue.
    static func bytes(of stream: InputStream) throws -> Data {
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

    /// The final progress of a load `start` began, for the async forms.
    static func finalProgress(_ start: (@escaping (LoadBundleTaskProgress?, Error?) -> Void) -> Void) async throws -> LoadBundleTaskProgress {
        try await withCheckedThrowingContinuation { continuation in
            start { progress, error in
                if let progress, error == nil { continuation.resume(returning: progress) } else {
                    continuation.resume(throwing: error ?? FirestoreErrorCode(.unknown, "loading the bundle failed"))
                }
            }
        }
    }

    /// Writes the documents; calls `progress` with how many are done after each commit.
    private func write(_ documents: [BundleContents.Document], progress: (Int) -> Void) throws {
        var done = 0
        while done < documents.count {
            let chunk = Array(documents[done..<min(done + Self.chunkSize, documents.count)])
            try write(chunk)
            done += chunk.count
            progress(done)
        }
    }

    private func write(_ chunk: [BundleContents.Document]) throws {
        for attempt in 1...Self.attempts {
            do {
                try commitOnce(chunk)
                return
            } catch DocumentStoreError.changedSinceRead where attempt < Self.attempts {
                continue  // a document changed meanwhile: read again and decide again
            }
        }
    }

    private func commitOnce(_ chunk: [BundleContents.Document]) throws {
        let backend = store.backend
        let (times, current) = try backend.consistently {
            (try backend.documentTimes(chunk.map(\.path)), try chunk.map { try backend.document(at: $0.path, store: store) })
        }
        var writes: [DocumentWrite] = [], expected: [ResourcePath: StoredDocument] = [:]
        for (index, document) in chunk.enumerated() {
            if let stored = times[index], stored.updated > document.readTime { continue }
            if document.fields == nil, current[index] == .missing { continue }
            if case .unreadable = current[index] { continue }  // a file being fixed by hand is the person's
            expected[document.path] = current[index]
            writes.append(DocumentWrite(path: document.path, change: document.fields.map { .document($0) } ?? .delete))
        }
        guard !writes.isEmpty else { return }
        try store.commit(writes, expecting: expected)
    }
}

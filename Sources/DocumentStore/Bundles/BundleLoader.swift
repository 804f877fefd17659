/// Writes a bundle's documents into a store through its one commit path, so every write is
/// checked as any other. A document changed here after the bundle's source read it is left as
/// it is (the bundle's copy is older), and each commit expects the documents as they were just
/// read, so a write made meanwhile is never overwritten.
struct BundleLoader {
    let store: Firestore
    /// Documents in one commit, as a write batch holds at most.
    private static let chunkSize = WriteBatch.maxWrites
    private static let attempts = 5

    /// Writes the documents; calls `progress` with how many are done after each commit.
    func write(_ documents: [BundleContents.Document], progress: (Int) -> Void) throws {
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

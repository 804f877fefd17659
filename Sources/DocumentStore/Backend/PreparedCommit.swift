/// A batch's writes with what a backend made of them before committing (`StorageBackend.prepare`),
/// on the thread that called `WriteBatch.prepare`: a bulk writer (`shelf generate`, `export`)
/// makes its next batch ready there while one is written, so the writing thread only writes.
package struct PreparedCommit: Sendable {
    package let writes: [DocumentWrite]
    /// The backend's own work: a folder's files and journal, encoded.
    package let made: any Sendable
}

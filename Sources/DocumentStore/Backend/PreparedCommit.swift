/// A batch's writes with what a backend made of them before committing (`PreparingStorage`),
/// on the thread that called `WriteBatch.prepare`: a bulk writer (`shelf generate`, `export`)
/// makes its next batch ready there while one is written, so the writing thread only writes.
package struct PreparedCommit: Sendable {
    package let writes: [DocumentWrite]
    /// Commits the writes as the backend that prepared them made them.
    let commit: @Sendable (Firestore) throws -> [WrittenDocument]
}

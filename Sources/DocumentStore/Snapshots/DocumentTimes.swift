import Foundation

/// Firestore's `create_time` and `update_time` of a document, as its storage keeps them: on a
/// folder the file's modification time and an extended attribute (see `DocumentFileTimes`),
/// on a server two columns. Every write that changes the document moves `updated` strictly
/// forward, so an `update_time` precondition always sees a change; one that changes nothing
/// keeps both, as Firestore does.
package struct DocumentTimes: Sendable, Equatable {
    package var created: Timestamp
    package var updated: Timestamp

    package init(created: Timestamp, updated: Timestamp) {
        self.created = created
        self.updated = updated
    }
}

extension Firestore {
    /// The times of the documents at `paths` (slash-separated), in the same order; nil for a
    /// document that does not exist.
    package func documentTimes(_ paths: [String]) throws -> [DocumentTimes?] {
        do {
            return try backend.documentTimes(try documentPaths(paths))
        } catch {
            throw publicError(error)
        }
    }

    func documentPaths(_ paths: [String]) throws -> [ResourcePath] {
        try paths.map { try ResourcePath.parse($0, expectDocument: true, rules: idRules) }
    }
}

extension DocumentTimes {
    /// Each document at `paths` in `store` as stored now with the times of that content: read
    /// between two reads of the times that agree (every write that changes it moves `updated`
    /// forward), so no change falls between.
    /// A listener's snapshot was read earlier: its times read later may be those of a newer
    /// content, and a client that compares update times then takes the newer content for no
    /// change. A document written in every round is given as last read.
    package static func documentsWithTimes(_ paths: [String], in store: Firestore) throws -> [(stored: StoredDocument, times: DocumentTimes?)] {
        do {
            let backend = store.backend
            let paths = try store.documentPaths(paths)
            var found = [(stored: StoredDocument, times: DocumentTimes?)](repeating: (.missing, nil), count: paths.count)
            var moving = Array(paths.indices)
            for _ in 0..<pairingRounds where !moving.isEmpty {
                let before = try backend.documentTimes(moving.map { paths[$0] })
                let stored = try backend.documents(at: moving.map { paths[$0] }, store: store)
                let after = try backend.documentTimes(moving.map { paths[$0] })
                var stillMoving: [Int] = []
                for (offset, index) in moving.enumerated() {
                    found[index] = (stored[offset], after[offset])
                    if before[offset] != after[offset] { stillMoving.append(index) }
                }
                moving = stillMoving
            }
            return found
        } catch {
            throw publicError(error)
        }
    }

    /// How many times `documentsWithTimes` reads a document written meanwhile again.
    static let pairingRounds = 5
}

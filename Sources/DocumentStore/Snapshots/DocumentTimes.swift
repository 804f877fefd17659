import Foundation

/// Firestore's `create_time` and `update_time` of a document, as its storage keeps them: on a
/// folder the file's modification time and an extended attribute (see `DocumentFiles+Times`),
/// on a server two columns. Every write moves `updated` strictly forward, so an `update_time`
/// precondition always sees a change.
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
            var parsed: [ResourcePath] = []
            for path in paths { parsed.append(try ResourcePath.parse(path, expectDocument: true, rules: idRules)) }
            return try backend.documentTimes(parsed)
        } catch {
            throw publicError(error)
        }
    }
}

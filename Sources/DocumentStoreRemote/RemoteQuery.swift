import DocumentStore
import FirestoreWire

/// What a client of a Firestore server cannot send: the queries are sent as
/// `StructuredQueryCodec` writes them.
enum RemoteQuery {
    /// What Firestore's protocol cannot say: words in a document's text
    /// (`Query.containing(words:)`, ours).
    static func refusal(of definition: QueryDefinition) -> FirestoreErrorCode? {
        guard !definition.words.isEmpty else { return nil }
        return FirestoreErrorCode(.unimplemented, "words in a document's text are matched by a store on a folder or PostgreSQL: Firestore's protocol has no text search")
    }

    /// The query as it is sent, or why it cannot be.
    static func encoded(_ definition: QueryDefinition, values: WireValues) throws(FirestoreErrorCode) -> StructuredQueryCodec {
        if let refused = refusal(of: definition) { throw refused }
        return StructuredQueryCodec(definition, values: values)
    }
}

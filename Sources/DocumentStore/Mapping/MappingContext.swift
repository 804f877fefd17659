/// What the property wrappers need to know about the read or write in progress. Task-local, so
/// concurrent decodes on other threads or tasks never see each other's document.
enum MappingContext {
    /// The document being decoded, for `@DocumentID`.
    @TaskLocal static var document: DocumentReference?
    /// The instant of the write being encoded, for `@ServerTimestamp`.
    @TaskLocal static var writeTime: Timestamp?
}

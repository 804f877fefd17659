import DocumentStore

/// Why one document could not be used: its path, the field, and a sentence naming what was
/// expected and what was found.
public struct DocumentProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let field: String?
    public let message: String

    /// What is wrong, without the document (a row shows which already), taken apart from the
    /// error rather than cut out of its message: the field, where there is one, and the reason.
    public let reason: String

    public init(path: String, field: String? = nil, message: String) {
        self.path = path
        self.field = field
        self.message = message
        reason = field.map { "\($0): \(message)" } ?? message
    }

    /// From any error a read, a decode or a write threw.
    public init(path: String, error: Error) {
        self.path = path
        switch error {
        case let decoding as DecodingError:
            field = decoding.fieldPath
            message = decoding.contextDescription
            let sentence = Firestore.Decoder.reason(of: decoding, in: path)
            reason = field.map { "\($0): \(sentence)" } ?? sentence
        case let store as FirestoreErrorCode:
            field = store.field
            message = store.description
            reason = store.reasonWithoutPath
        default:
            field = nil
            message = "document \(path): \(error)"
            reason = "\(error)"
        }
    }

    public var description: String { message }
}

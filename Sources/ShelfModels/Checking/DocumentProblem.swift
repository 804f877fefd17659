import DocumentStore

/// Why one document could not be used: its path, the field, and a sentence naming what was
/// expected and what was found.
public struct DocumentProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let field: String?
    public let message: String

    public init(path: String, field: String? = nil, message: String) {
        self.path = path
        self.field = field
        self.message = message
    }

    /// From any error a read, a decode or a write threw.
    public init(path: String, error: Error) {
        self.path = path
        switch error {
        case let decoding as DecodingError:
            field = decoding.fieldPath
            message = decoding.contextDescription
        case let store as FirestoreErrorCode:
            field = nil
            message = store.description
        default:
            field = nil
            message = "document \(path): \(error)"
        }
    }

    public var description: String { message }
}

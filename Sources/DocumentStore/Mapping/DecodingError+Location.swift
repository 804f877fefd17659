extension DecodingError {
    /// The error's own description. From `Firestore.Decoder` it names the document, the field,
    /// what was expected and what was found.
    public var contextDescription: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(self)"
        }
    }

    /// The field the error is about (`tags[1].color`), or nil when it concerns the whole document.
    public var fieldPath: String? {
        let path: [any CodingKey]
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
        @unknown default:
            path = []
        }
        return path.isEmpty ? nil : Firestore.Decoder.fieldPath(path)
    }
}

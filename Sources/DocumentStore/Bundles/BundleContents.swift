/// What a bundle holds, read and checked whole before anything is written: its metadata, its
/// named queries and its documents (a document is a `documentMetadata` element, then, if the
/// document exists, a `document` element of the same name).
struct BundleContents {
    struct Document {
        let path: ResourcePath
        /// When the bundle's source read it: a document changed here since is left as it is.
        let readTime: Timestamp
        /// Nil: the document did not exist when read.
        let fields: Fields?
    }

    var bundleID = ""
    var totalDocuments = 0
    var totalBytes = 0
    var documents: [Document] = []
    var namedQueries: [String: Query] = [:]
    /// After each document, how many bytes had been read then (the metadata not counted).
    var bytesAfterDocument: [Int] = []

    init(_ frames: [BundleFraming.Frame], store: Firestore) throws {
        guard let first = frames.first, let metadata = first.object["metadata"] else {
            throw BundleFraming.corrupt(0, at: 0, "a bundle starts with its metadata element")
        }
        let head = RESTJSON(store: store, element: "element 1 (metadata)")
        let fields = try head.object(metadata, "metadata")
        bundleID = try head.string(fields["id"], "metadata.id")
        totalDocuments = Int(try head.integer(fields["totalDocuments"] ?? .number("0"), "metadata.totalDocuments"))
        totalBytes = Int(try head.integer(fields["totalBytes"] ?? .number("0"), "metadata.totalBytes"))
        var pending: (path: ResourcePath, readTime: Timestamp)?
        var bytes = 0
        for (index, frame) in frames.enumerated().dropFirst() {
            let json = RESTJSON(store: store, element: "element \(index + 1)")
            bytes += frame.byteCount
            if let named = frame.object["namedQuery"] {
                let object = try json.object(named, "namedQuery")
                let name = try json.string(object["name"], "namedQuery.name")
                namedQueries[name] = try BundledQuery(json: json).query(try json.object(object["bundledQuery"], "namedQuery.bundledQuery"),
                                                                       "namedQuery.bundledQuery")
            } else if let described = frame.object["documentMetadata"] {
                guard pending == nil else { throw json.failure("documentMetadata", "the document before it is missing") }
                let object = try json.object(described, "documentMetadata")
                let path = try documentPath(object["name"], json, "documentMetadata.name")
                let readTime = try json.timestamp(object["readTime"], "documentMetadata.readTime")
                if case .bool(true)? = object["exists"] {
                    pending = (path, readTime)
                } else {
                    documents.append(Document(path: path, readTime: readTime, fields: nil))
                    bytesAfterDocument.append(bytes)
                }
            } else if let document = frame.object["document"] {
                let object = try json.object(document, "document")
                let path = try documentPath(object["name"], json, "document.name")
                guard let described = pending, described.path == path else {
                    throw json.failure("document", "the document \(path) does not follow its documentMetadata element")
                }
                documents.append(Document(path: path, readTime: described.readTime, fields: try json.fields(object["fields"], "document.fields")))
                bytesAfterDocument.append(bytes)
                pending = nil
            } else {
                throw json.failure("", "expected a namedQuery, documentMetadata or document element, found keys \(frame.object.keys.sorted())")
            }
        }
        if let pending { throw head.failure("end", "the bundle ends before the document \(pending.path) that its last documentMetadata announces") }
        guard documents.count == totalDocuments else {
            throw head.failure("metadata.totalDocuments", "says \(totalDocuments) documents, the bundle holds \(documents.count)")
        }
    }

    private func documentPath(_ name: JSONValue?, _ json: RESTJSON, _ field: String) throws -> ResourcePath {
        let path = try json.path(ofName: name, field)
        guard path.isDocument, !path.segments.isEmpty else { throw json.failure(field, "\(path) is not a document's path") }
        return path
    }
}

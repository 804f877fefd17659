/// Which fields a write stamps with `serverTimestamp()`. A backend that stores through a
/// Firestore server asks the server to stamp them (`REQUEST_TIME`), so the time is the
/// server's, as every client of that server sees it, not this machine's clock.
extension DocumentWrite {
    package var serverTimestampFields: [FieldPath] {
        switch change {
        case .set(let fields, .fields(let merged)):
            return Self.stamped(in: fields, under: []).filter { field in merged.contains { $0.isPrefix(of: field) } }
        case .set(let fields, _):
            return Self.stamped(in: fields, under: [])
        case .update(let fields):
            return fields.flatMap { path, value in Self.stamped(value, at: path.segments) }
        case .protocolWrite(let write, _):
            return write.transforms.filter { if case .serverTimestamp = $0.transform.operation { true } else { false } }.map(\.field)
        case .delete, .document:
            return []
        }
    }

    /// The fields of each document that a commit's `serverTimestamp()`s stamp: those of the
    /// writes after the last one that replaced the document (a set, a delete), each once (two
    /// writes of a batch may stamp the same field).
    package static func stampedFields(_ writes: [DocumentWrite]) -> [ResourcePath: [FieldPath]] {
        var stamped: [ResourcePath: [FieldPath]] = [:]
        for write in writes {
            if !write.readsCurrent { stamped[write.path] = [] }
            for field in write.serverTimestampFields where !(stamped[write.path]?.contains(field) ?? false) {
                stamped[write.path, default: []].append(field)
            }
        }
        return stamped
    }

    private static func stamped(in fields: [String: WriteValue], under parent: [String]) -> [FieldPath] {
        fields.flatMap { name, value in stamped(value, at: parent + [name]) }
    }

    private static func stamped(_ value: WriteValue, at segments: [String]) -> [FieldPath] {
        switch value {
        case .sentinel(let sentinel):
            if case .serverTimestamp = sentinel.operation { return [FieldPath(segments)] }
            return []
        case .map(let fields):
            return stamped(in: fields, under: segments)
        case .value:
            return []
        }
    }
}

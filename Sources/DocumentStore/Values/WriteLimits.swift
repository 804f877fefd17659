import Foundation

/// Firestore's limits on what a document holds, checked once on the way to the disk, whatever
/// the way in (a dictionary, the encoder, a transform), so the store never writes what it, or
/// Firestore, could not read back. A value nested deeper than Firestore allows that a person
/// wrote by hand reads; left alone, it is written back as it was (`stored`).
package enum WriteLimits {
    /// Maps and arrays nest at most this deep.
    static let maxDepth = 20
    /// A document is at most 1 MiB by Firestore's count (`StorageSize`).
    static let maxDocumentBytes = 1 << 20
    /// A folder's file is read as a document up to this size: a 1 MiB document whose every
    /// character the JSON escapes (`\u0001`) takes 6 MiB.
    static let maxFileBytes = 8 << 20
    static let maxFieldNameBytes = 1500
    /// A string or bytes value is at most 1 MiB less 89 bytes, Firestore's documented limit
    /// of a field value, which the emulator checks before the document's size.
    static let maxValueBytes = 1_048_487

    private static func valueTooLong(_ bytes: Int) -> String {
        "the value is \(bytes) bytes; a string or bytes value is at most \(maxValueBytes) bytes"
    }

    /// The fields as they will be stored: checked, and timestamps truncated to microseconds, as
    /// Firestore stores them.
    /// `stored`: the document's fields before this write, whose deep values may stay.
    static func checked(_ fields: [String: FirestoreValue], replacing stored: Fields? = nil, document: String,
                        store: Firestore) throws(DocumentStoreError) -> Fields {
        try checked(Fields(fields), stored: stored, under: { nil }, depth: 1, document: document, store: store)
    }

    /// A map's fields; `field` names the map in errors (nil: the document itself). Names are
    /// made only for an error: a batch of 500 documents is checked while the store's write lock
    /// is held.
    private static func checked(_ fields: Fields, stored: Fields?, under field: () -> String?, depth: Int, document: String,
                                store: Firestore) throws(DocumentStoreError) -> Fields {
        var values: [FirestoreValue] = []
        values.reserveCapacity(fields.count)
        for (name, item) in fields {
            func path() -> String { field().map { $0 + "." + name } ?? name }
            try checkName(name, field: path, document: document)
            values.append(try checked(item, stored: stored?[name], field: path, depth: depth, document: document, store: store))
        }
        return Fields(shape: fields.shape, values: values)
    }

    private static func checked(_ value: FirestoreValue, stored: FirestoreValue?, field: () -> String, depth: Int, document: String,
                                store: Firestore) throws(DocumentStoreError) -> FirestoreValue {
        func fail(_ reason: String) -> DocumentStoreError { .invalidValue(path: document, field: field(), reason: reason) }
        switch value {
        case .null, .boolean, .integer, .double:
            return value
        case .string(let text):
            if text.utf8.count > maxValueBytes { throw fail(valueTooLong(text.utf8.count)) }
            return value
        case .bytes(let data):
            if data.count > maxValueBytes { throw fail(valueTooLong(data.count)) }
            return value
        case .timestamp(let timestamp):
            if let problem = timestamp.rangeProblem { throw fail(problem) }
            return .timestamp(timestamp.truncatedToMicroseconds)
        case .geoPoint(let point):
            if let problem = GeoPoint.problem(latitude: point.latitude, longitude: point.longitude) {
                throw fail("invalid GeoPoint: \(problem)")
            }
            return value
        case .reference(let reference):
            if let invalid = reference.invalid { throw fail("the reference is invalid: \(invalid)") }
            guard reference.firestore.directory.standardizedFileURL == store.directory.standardizedFileURL else {
                throw fail("the reference \(reference.path) belongs to the store at \(reference.firestore.directory.path), not this one at \(store.directory.path)")
            }
            return value
        case .array(let items):
            guard depth <= maxDepth || value == stored else { throw tooDeep(field: field(), document: document) }
            let storedItems = stored?.arrayValue
            var result: [FirestoreValue] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                func element() -> String { "\(field())[\(index)]" }
                if case .array = item {
                    throw DocumentStoreError.invalidValue(path: document, field: element(),
                                                          reason: "an array cannot directly hold another array; put the inner array in a map")
                }
                let storedItem = storedItems.flatMap { index < $0.count ? $0[index] : nil }
                result.append(try checked(item, stored: storedItem, field: element, depth: depth + 1, document: document, store: store))
            }
            return .array(result)
        case .map where value.vectorElements != nil:
            return value  // Firestore's vector type: its reserved "__type__" name is its tag
        case .map(let fields):
            guard depth <= maxDepth || value == stored else { throw tooDeep(field: field(), document: document) }
            return .map(try checked(fields, stored: stored?.mapValue, under: { field() }, depth: depth + 1, document: document, store: store))
        }
    }

    /// Checks a document's size as Firestore counts it, not as a backend encodes it.
    package static func checkSize(of fields: Fields, at path: ResourcePath) throws(DocumentStoreError) {
        let bytes = StorageSize.document(path, fields)
        guard bytes <= maxDocumentBytes else { throw .documentTooLarge(path: path.description, bytes: bytes) }
    }

    /// Why fields read from a file are too large to be a document (its name not counted), or nil.
    static func sizeProblem(of fields: Fields) -> String? {
        let bytes = StorageSize.map(fields) + 32
        return bytes <= maxDocumentBytes ? nil : "its fields are \(bytes) bytes by Firestore's count; a document is at most 1 MiB (1048576 bytes)"
    }

    private static func tooDeep(field: String, document: String) -> DocumentStoreError {
        .invalidValue(path: document, field: field, reason: "maps and arrays can be nested at most \(maxDepth) levels deep")
    }

    private static func checkName(_ name: String, field: () -> String, document: String) throws(DocumentStoreError) {
        func fail(_ reason: String) -> DocumentStoreError { .invalidValue(path: document, field: field(), reason: reason) }
        if name.isEmpty { throw fail("a field name cannot be empty") }
        let bytes = name.utf8.count
        if bytes > maxFieldNameBytes { throw fail("a field name is at most \(maxFieldNameBytes) bytes, this one is \(bytes)") }
        if isReserved(name) {
            throw fail("field names that begin and end with \"__\" are reserved")
        }
    }

    /// A name Firestore keeps for itself (a field's, an aggregation's alias): "__" before and after.
    package static func isReserved(_ name: String) -> Bool {
        name.utf8.count >= 4 && name.hasPrefix("__") && name.hasSuffix("__")
    }
}

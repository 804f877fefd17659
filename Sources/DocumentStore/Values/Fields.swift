/// The fields of a document or of a map: the values packed in one block (`PackedValues`),
/// their names in a `FieldShape` sorted by their UTF-8 bytes (Firestore's order of field names).
///
/// A `[String: FirestoreValue]` of four fields takes some 400 bytes; this takes the values'
/// block, since the documents read from one folder share the shape of their names
/// (`FieldShapes`). A name is found by its bytes; one not found that is not plain ASCII is then
/// looked for with Swift's `String ==`, as the dictionary this replaces found it (U+212A KELVIN
/// SIGN finds "K"). No two names of one map are equal under `==` (a dictionary cannot hold them,
/// and the readers refuse such a file), so at most one matches.
package struct Fields: @unchecked Sendable {  // its `PackedValues` is never changed once made
    let shape: FieldShape
    /// In the order of `shape.names`.
    let packed: PackedValues

    init(shape: FieldShape, values: some Collection<FirestoreValue>) {
        self.shape = shape
        packed = values.isEmpty ? .empty : .make(values)
    }

    package init(_ dictionary: [String: FirestoreValue]) {
        guard !dictionary.isEmpty else {
            self.init(shape: .empty, values: [])
            return
        }
        let sorted = dictionary.sorted { UTF8Bytes.compare($0.key, $1.key) < 0 }
        self.init(shape: FieldShape(sortedNames: sorted.map(\.key)), values: sorted.map(\.value))
    }

    package var names: [String] { shape.names }

    package subscript(name: String) -> FirestoreValue? {
        shape.index(of: name).map { packed[$0] }
    }

    /// The value at a field path (["cover", "small"]).
    package func value(at segments: [String]) -> FirestoreValue? { value(at: segments[...]) }

    /// Not generic: the app calls it for every row's every column, across modules, where a
    /// generic one is not specialized and asks the runtime for its types at each call.
    package func value(at segments: ArraySlice<String>) -> FirestoreValue? {
        guard let first = segments.first, let value = self[first] else { return nil }
        if segments.count == 1 { return value }
        guard case .map(let nested) = value else { return nil }
        return nested.value(at: segments.dropFirst())
    }

    /// The value at a field path read in place by `body`, not called when there is none: a
    /// string as its stored bytes, without making it. A list's search texts read every row's
    /// cells so, on every core, where making each string (and its cell's) took a fifth of
    /// their time. Not generic, as `value(at:)` is not.
    package func withValue(at segments: [String], _ body: (StoredValue) -> Void) { withValue(at: segments[...], body) }

    package func withValue(at segments: ArraySlice<String>, _ body: (StoredValue) -> Void) {
        guard let first = segments.first, let index = shape.index(of: first) else { return }
        if segments.count == 1 { return packed.withValue(at: index, body) }
        guard case .map(let nested) = packed[index] else { return }
        nested.withValue(at: segments.dropFirst(), body)
    }

    /// The same names with each value transformed.
    func mapValues(_ transform: (FirestoreValue) throws -> FirestoreValue) rethrows -> Fields {
        Fields(shape: shape, values: try map { try transform($0.value) })
    }

    /// The fields as a dictionary, for code that edits them or hands them to a caller.
    package var dictionary: [String: FirestoreValue] { dictionary { $0 } }

    package func dictionary<T>(_ transform: (FirestoreValue) throws -> T) rethrows -> [String: T] {
        var result: [String: T] = [:]
        result.reserveCapacity(count)
        for (name, value) in self { result[name] = try transform(value) }
        return result
    }
}

extension Fields: RandomAccessCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { packed.count }
    package subscript(position: Int) -> (name: String, value: FirestoreValue) { (shape.names[position], packed[position]) }
}

extension Fields: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (String, FirestoreValue)...) {
        self.init(Dictionary(uniqueKeysWithValues: elements))
    }
}

extension Fields: Equatable {
    /// Names by their bytes, values by Firestore's equality: {"é": 1} with U+00E9 is not
    /// {"é": 1} with "e" + U+0301.
    package static func == (a: Fields, b: Fields) -> Bool {
        guard a.count == b.count, a.packed === b.packed || a.indices.allSatisfy({ a.packed[$0] == b.packed[$0] }) else { return false }
        return a.shape === b.shape || a.names.elementsEqual(b.names, by: UTF8Bytes.equal)
    }
}

/// The names of a map's fields, sorted by their UTF-8 bytes, shared by every map of those names.
final class FieldShape: Sendable {
    let names: [String]
    /// The names' bytes end to end, and where each ends: looked up and matched with `memcmp`,
    /// without a `String` in sight.
    private let bytes: [UInt8]
    private let ends: [Int]
    /// No name has a byte over 0x7F: an ASCII name not found by its bytes is not there.
    private let isASCII: Bool

    static let empty = FieldShape(sortedNames: [])

    init(sortedNames: [String]) {
        names = sortedNames
        var bytes: [UInt8] = [], ends: [Int] = []
        for name in sortedNames {
            bytes += name.utf8
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
        isASCII = bytes.allSatisfy { $0 < 0x80 }
    }

    /// Where the bytes of the name at `index` lie in `bytes`.
    private func span(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

    /// True when the names are these, byte for byte.
    func hasNames(count: Int, _ name: (Int) -> UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == ends.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            (0..<count).allSatisfy { UTF8Bytes.compare(UnsafeBufferPointer(rebasing: all[span($0)]), name($0)) == 0 }
        }
    }

    func index(of name: String) -> Int? {
        var name = name
        let exact = name.withUTF8 { key in
            bytes.withUnsafeBufferPointer { all -> Int? in
                var low = 0, high = ends.count
                while low < high {
                    let middle = (low + high) / 2
                    switch UTF8Bytes.compare(UnsafeBufferPointer(rebasing: all[span(middle)]), key) {
                    case 0: return middle
                    case ..<0: low = middle + 1
                    default: high = middle
                    }
                }
                return nil
            }
        }
        if let exact { return exact }
        if isASCII && UTF8Bytes.isASCII(name) { return nil }
        return names.firstIndex { $0 == name }
    }
}

/// The shapes met while reading a run of files, so that maps with the same names (a
/// collection's documents, as a rule) share one. Names compare by their bytes: "café" with
/// U+00E9 and with "e" + U+0301 are two shapes.
struct FieldShapes {
    private var known: [FieldShape] = []
    private var replaced = 0
    /// Enough for the shapes of a collection's documents and the maps in them; more are
    /// still read, each evicting the oldest.
    private static let limit = 32

    /// The shape met before whose names are these bytes.
    func shape(count: Int, names: (Int) -> UnsafeBufferPointer<UInt8>) -> FieldShape? {
        known.first { $0.hasNames(count: count, names) }
    }

    /// Keeps `shape` for the maps that follow.
    mutating func remember(_ shape: FieldShape) {
        if known.count < Self.limit {
            known.append(shape)
        } else {
            known[replaced] = shape
            replaced = (replaced + 1) % Self.limit
        }
    }
}

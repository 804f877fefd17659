/// Reads a document file's bytes straight into its fields, without building the `JSONValue`
/// tree first: the fast path of `DocumentFiles.readDocument`, where reading 100,000 documents
/// spends its time.
///
/// It takes what files almost always hold and gives up on anything else (a syntax error, a
/// duplicate field, a field name with an escape, invalid UTF-8, a byte order mark, deep
/// nesting, a tag that does not read), so that the careful path, `JSONParser` then
/// `DocumentJSON`, decides and names the problem: one set of rules and messages. A tagged value
/// (`{"$timestamp": …}`) is read by `DocumentJSON`. A map's names are matched, as bytes of the
/// file, against the shapes met before (`FieldShapes`), so the documents of a folder share one
/// and a document of a known shape makes no string for its names.
package struct DocumentParser {
    private struct GiveUp: Error {}

    /// What the parser keeps from one file to the next: the shapes of the maps read so far,
    /// which the next maps share, and its working room.
    package struct Scratch {
        var shapes = FieldShapes()
        fileprivate var arrays = SharedArrays()
        /// The fields of the objects being read (their names as spans of the file), and the
        /// items of the arrays, before each becomes an array of exactly its size.
        fileprivate var fields: [(name: Range<Int>, value: FirestoreValue)] = []
        fileprivate var items: [FirestoreValue] = []

        package init() {}
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private let store: Firestore
    private var scratch = Scratch()

    /// The fields, or nil when the careful path must decide.
    static func fields(_ bytes: UnsafeBufferPointer<UInt8>, store: Firestore, scratch: inout Scratch) -> Fields? {
        guard bytes.first == UInt8(ascii: "{") || bytes.first.map(isWhitespace) == true else { return nil }
        var parser = DocumentParser(bytes: bytes, store: store)
        swap(&parser.scratch, &scratch)
        defer {
            parser.scratch.fields.removeAll(keepingCapacity: true)  // what giving up left
            parser.scratch.items.removeAll(keepingCapacity: true)
            swap(&parser.scratch, &scratch)
        }
        do {
            parser.skipWhitespace()
            guard parser.peek() == UInt8(ascii: "{") else { return nil }
            let fields = try parser.object()
            parser.skipWhitespace()
            return parser.index == bytes.count ? fields : nil
        } catch {
            return nil
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, store: Firestore) {
        self.bytes = bytes
        self.store = store
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        skipWhitespace()
        guard peek() == byte else { throw GiveUp() }
        index += 1
    }

    private mutating func value() throws(GiveUp) -> FirestoreValue {
        skipWhitespace()
        guard let byte = peek() else { throw GiveUp() }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "{"):
            let start = index
            let fields = try object()
            if fields.count == 1, fields.names[0].utf8.first == UInt8(ascii: "$") {
                return try tagged(from: start)
            }
            return .map(fields)
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "t"): try word("true"); return .boolean(true)
        case UInt8(ascii: "f"): try word("false"); return .boolean(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        default: throw GiveUp()
        }
    }

    /// A one-key object whose key starts with "$", from `start` to here: `DocumentJSON` reads it,
    /// as a tag or as a plain map.
    private func tagged(from start: Int) throws(GiveUp) -> FirestoreValue {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let json = try? JSONParser.parse(slice), let value = try? DocumentJSON.value(json, field: "", store: store) else {
            throw GiveUp()
        }
        return value
    }

    private mutating func object() throws(GiveUp) -> Fields {
        depth += 1
        if depth > 100 { throw GiveUp() }
        index += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return Fields(shape: .empty, values: [])
        }
        let first = scratch.fields.count
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw GiveUp() }
            let name = try name()
            try expect(UInt8(ascii: ":"))
            let value = try value()
            scratch.fields.append((name, value))
            skipWhitespace()
            guard let byte = peek() else { throw GiveUp() }
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            guard byte == UInt8(ascii: "}") else { throw GiveUp() }
            depth -= 1
            let fields = Fields(shape: try shape(from: first), values: scratch.fields[first...].lazy.map(\.value))
            while scratch.fields.count > first { scratch.fields.removeLast() }
            return fields
        }
    }

    /// A field name, as its span of the file; one with an escape is for the careful path.
    private mutating func name() throws(GiveUp) -> Range<Int> {
        index += 1  // "
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<index - 1
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { throw GiveUp() }
            index += 1
        }
        throw GiveUp()
    }

    /// The shape of the fields from `first` on, once they are sorted by the bytes of their
    /// names (Shelf writes them so): one met before, or a new one. Gives up on a duplicate (the
    /// same bytes twice, or two names Swift's `String ==` finds equal, which takes a name that
    /// is not ASCII) and on a name that is not UTF-8.
    private mutating func shape(from first: Int) throws(GiveUp) -> FieldShape {
        let bytes = self.bytes
        func name(_ span: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[span]) }
        var isSorted = true
        for i in first..<scratch.fields.count - 1 {
            let order = UTF8Bytes.compare(name(scratch.fields[i].name), name(scratch.fields[i + 1].name))
            if order == 0 { throw GiveUp() }
            if order > 0 { isSorted = false }
        }
        if !isSorted {
            scratch.fields[first...].sort { UTF8Bytes.compare(name($0.name), name($1.name)) < 0 }
            for i in first..<scratch.fields.count - 1 where UTF8Bytes.compare(name(scratch.fields[i].name), name(scratch.fields[i + 1].name)) == 0 {
                throw GiveUp()
            }
        }
        let fields = scratch.fields
        if let known = scratch.shapes.shape(count: fields.count - first, names: { name(fields[first + $0].name) }) { return known }
        var names: [String] = []
        for field in fields[first...] {
            guard let text = String(validating: name(field.name), as: UTF8.self) else { throw GiveUp() }
            names.append(text)
        }
        if !names.allSatisfy(UTF8Bytes.isASCII) && Set(names).count != names.count { throw GiveUp() }
        let shape = FieldShape(sortedNames: names)
        scratch.shapes.remember(shape)
        return shape
    }

    private mutating func array() throws(GiveUp) -> [FirestoreValue] {
        depth += 1
        if depth > 100 { throw GiveUp() }
        let start = index
        index += 1  // [
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return []
        }
        let first = scratch.items.count
        while true {
            let item = try value()
            scratch.items.append(item)
            skipWhitespace()
            guard let byte = peek() else { throw GiveUp() }
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            guard byte == UInt8(ascii: "]") else { throw GiveUp() }
            depth -= 1
            let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
            let items = scratch.arrays.shared(scratch.items[first...], text: text)
            while scratch.items.count > first { scratch.items.removeLast() }
            return items
        }
    }

    /// A string without escapes is made from the file's bytes in one step; one with escapes
    /// other than `\u` is unescaped here; anything else is for the careful path.
    private mutating func string() throws(GiveUp) -> String {
        index += 1  // "
        let start = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if isASCII { return String(decoding: text, as: UTF8.self) }
                guard let string = String(validating: text, as: UTF8.self) else { throw GiveUp() }
                return string
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if byte < 0x20 { throw GiveUp() }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        throw GiveUp()
    }

    private mutating func escapedString(from start: Int) throws(GiveUp) -> String {
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else { throw GiveUp() }
                return string
            case UInt8(ascii: "\\"):
                guard let escape = peek() else { throw GiveUp() }
                index += 1
                guard let unescaped = JSONParser.unescaped(escape) else { throw GiveUp() }  // `\u`: the careful path
                utf8.append(unescaped)
            case 0x00..<0x20: throw GiveUp()
            default: utf8.append(byte)
            }
        }
        throw GiveUp()
    }

    /// As `DocumentJSON` reads numbers: without fraction or exponent and within 64 bits, an
    /// integer; otherwise a double, converted by the same `Double(String)`.
    private mutating func number() throws(GiveUp) -> FirestoreValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            overflow = overflow || o1 || o2
            magnitude = sum
            index += 1
        }
        let digitCount = index - digitsStart
        guard digitCount > 0 else { throw GiveUp() }
        if digitCount > 1 && bytes[digitsStart] == UInt8(ascii: "0") { throw GiveUp() }  // a leading zero
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        if isInteger && !overflow {
            if negative && magnitude <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- magnitude)) }
            if !negative && magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return .double(Double(text) ?? .nan)
    }

    private mutating func digits() throws(GiveUp) {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        if index == start { throw GiveUp() }
    }

    private mutating func word(_ text: StaticString) throws(GiveUp) {
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count,
              UnsafeBufferPointer(rebasing: bytes[index..<index + expected.count]).elementsEqual(expected) else { throw GiveUp() }
        index += expected.count
    }
}

/// The small arrays of plain values met lately, so that documents holding the same one (a
/// book's genres, a list of tags) share its storage instead of each holding a copy: at a
/// million books, their copies took 76 MiB of the heap. An array is found by a hash of its
/// text, then matched by Firestore's equality, so one shared is always the same value (1 is
/// never 1.0, nor -0.0 0.0). Arrays are values: sharing one is never seen.
struct SharedArrays {
    /// Made at the first array: a parser starts with an empty scratch of its own, swapped
    /// for its caller's, at every file.
    private var slots: [[FirestoreValue]?] = []
    private static let slotCount = 512
    /// Longer arrays rarely repeat, and hashing them would cost more than it saves.
    private static let longestText = 128
    private static let mostItems = 8

    /// `items`, parsed from `text`: an equal array met before, or a new one, kept for the next.
    /// Two slots a hash, the one found or made last first, so two arrays whose hashes meet
    /// do not keep pushing each other out.
    mutating func shared(_ items: ArraySlice<FirestoreValue>, text: UnsafeBufferPointer<UInt8>) -> [FirestoreValue] {
        guard text.count <= Self.longestText, items.count <= Self.mostItems, items.allSatisfy(\.isPlain) else { return Array(items) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.slotCount) }
        let first = Int(hash >> 56) % (Self.slotCount / 2) * 2  // the high bits: FNV mixes them best
        if let known = slots[first], known.elementsEqual(items) { return known }
        if let known = slots[first + 1], known.elementsEqual(items) {
            slots.swapAt(first, first + 1)
            return known
        }
        let new = Array(items)
        slots[first + 1] = slots[first]
        slots[first] = new
        return new
    }
}

private extension FirestoreValue {
    /// Null, a boolean, a number or a string: nothing that holds other values or a reference.
    var isPlain: Bool {
        switch self {
        case .null, .boolean, .integer, .double, .string: true
        default: false
        }
    }
}

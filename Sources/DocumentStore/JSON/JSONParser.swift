/// A strict JSON parser (RFC 8259) over UTF-8 bytes, producing `JSONValue`.
///
/// Written for hand-edited files: errors give line and column, and invalid UTF-8 is refused
/// rather than guessed at.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        let message: String
        let line: Int
        let column: Int
        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// What is parsed, as messages name it: a document's file, or a value typed as text.
    enum Input {
        case file, text
        var name: String { self == .file ? "the file" : "the text" }
    }

    private let bytes: [UInt8]
    private let input: Input
    private var index = 0
    private var depth = 0
    private static let maxDepth = 100

    static func parse(_ bytes: some Collection<UInt8>, input: Input = .file) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), input: input)
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8], input: Input) {
        self.bytes = bytes
        self.input = input
    }

    private mutating func parseDocument() throws(Failure) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw fail("\(input.name) is empty") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected text after the end of the JSON value") }
        return value
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail(input == .file ? "unexpected end of file" : "unexpected end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("expected a value, found \(shownByte())")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(fields) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw fail("expected a field name in double quotes, found \(shownByte())") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw fail("expected ':' after field name \"\(key)\", found \(shownByte())") }
            index += 1
            skipWhitespace()
            if fields[key] != nil { throw fail(Self.duplicate(key, of: fields.keys.first { $0 == key }!)) }
            fields[key] = try parseValue()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(fields) }
            throw fail("expected ',' or '}', found \(shownByte())")
        }
    }

    /// Swift's `String ==` finds two names equal that differ only in Unicode normalization; a
    /// document's fields are found by name with it (see `Fields`), so it cannot hold both: say
    /// exactly that.
    private static func duplicate(_ key: String, of existing: String) -> String {
        guard !existing.utf8.elementsEqual(key.utf8) else { return "the field \"\(key)\" appears twice" }
        func scalars(_ name: String) -> String {
            name.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
        }
        return "the fields \"\(existing)\" (\(scalars(existing))) and \"\(key)\" (\(scalars(key))) differ only in Unicode "
            + "normalization, and the store cannot hold both in one map; rename one of them"
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(items) }
            throw fail("expected ',' or ']', found \(shownByte())")
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > Self.maxDepth { throw fail("nested deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseString() throws(Failure) -> String {
        let start = index
        index += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    index = start  // point at the string, not past it
                    throw fail("the text is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unterminated string") }
                let escape = bytes[index]
                index += 1
                if let unescaped = Self.unescaped(escape) {
                    utf8.append(unescaped)
                } else if escape == UInt8(ascii: "u") {
                    utf8.append(contentsOf: try parseUnicodeEscape())
                } else {
                    index -= 1
                    throw fail("invalid escape \\\(shownByte())")
                }
            case 0x00..<0x20:
                throw fail("control character in a string (write it as an escape such as \\n)")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseUnicodeEscape() throws(Failure) -> [UInt8] {
        let first = try parseHex4()
        var scalarValue = UInt32(first)
        if (0xD800..<0xDC00).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("lone surrogate \\u\(String(first, radix: 16))")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00..<0xE000).contains(second) else { throw fail("invalid surrogate pair") }
            scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        } else if (0xDC00..<0xE000).contains(first) {
            throw fail("lone surrogate \\u\(String(first, radix: 16))")
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw fail("invalid \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseHex4() throws(Failure) -> UInt16 {
        guard index + 4 <= bytes.count else { throw fail("incomplete \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = hexDigitValue(bytes[index]) else { throw fail("invalid hex digit in \\u escape") }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit, found \(shownByte())") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("numbers cannot have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw fail("expected a value, found \(shownByte())")
        }
        index += expected.count
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func shownByte() -> String {
        guard index < bytes.count else { return "the end of \(input.name)" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func fail(_ message: String) -> Failure {
        var line = 1
        var lineStart = 0
        for i in 0..<min(index, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Columns count characters, not bytes, so they match what an editor shows.
        let column = String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1
        return Failure(message: message, line: line, column: column)
    }
}

extension String {
    /// Padded with zeros in front to `width` characters.
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

extension JSONParser {
    /// The byte a one-letter escape stands for (`\n` is a line feed), nil for `\u` and for
    /// letters JSON has no escape for: the one table both readers of documents use.
    static func unescaped(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }
}

/// Writes `JSONValue`s in the one format Shelf puts on disk: two-space indentation,
/// `"key": value`, keys sorted by their UTF-8 bytes (Firestore's order of field names), a final
/// newline. Stable output keeps diffs and hand edits clean.
package enum JSONWriter {
    /// How the text is laid out: over lines with indentation (files), on one line with a space
    /// after each ',' and ':' (one value shown to a person), or with no spaces at all.
    enum Layout {
        case pretty, oneLine, compact
    }

    static func documentBytes(_ fields: [String: JSONValue]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(.object(fields), indent: 0, layout: .pretty, into: &out)
        out.append(0x0A)
        return out
    }

    /// Compact form, for handing a value to a decoder or comparing contents.
    package static func compactBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, layout: .compact, into: &out)
        return out
    }

    /// One line, `{"a": 1, "b": [true, null]}`: how a single value reads in a text field.
    static func oneLineBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, layout: .oneLine, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, layout: Layout, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { separate(layout, &out) }
                newline(indent + 1, layout, &out)
                write(item, indent: indent + 1, layout: layout, into: &out)
            }
            newline(indent, layout, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            if fields.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (i, key) in fields.keys.sorted(by: { UTF8Bytes.compare($0, $1) < 0 }).enumerated() {
                if i > 0 { separate(layout, &out) }
                newline(indent + 1, layout, &out)
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if layout != .compact { out.append(0x20) }
                write(fields[key]!, indent: indent + 1, layout: layout, into: &out)
            }
            newline(indent, layout, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The ',' between items; on one line, followed by a space.
    private static func separate(_ layout: Layout, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        if layout == .oneLine { out.append(0x20) }
    }

    private static func newline(_ indent: Int, _ layout: Layout, _ out: inout [UInt8]) {
        guard layout == .pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

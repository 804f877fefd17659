import Foundation

/// An sRGB colour with alpha, stored in documents as a CSS hex string.
///
/// Components are bytes rather than floating point so that reading a hex string and writing
/// it back is exact: `#f05138` stays `#f05138` however often a document is saved.
public struct Color: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255 is opaque, 0 fully transparent.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// `#ff0000`: the sample app's `ColorEntry.empty` starts with it.
    public static let red = Color(red: 255, green: 0, blue: 0)

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (any case; surrounding whitespace is
    /// ignored). Unlike the sample app, which turns anything it cannot read into black, every
    /// other input is rejected, so a typo in a document is reported instead of hidden.
    public init(hex: String) throws(ColorParseError) {
        let text = hex.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = text.first else { throw .empty(input: hex) }
        guard first == "#" else { throw .missingHash(input: hex) }

        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(8)
        for character in text.dropFirst() {
            guard let value = Color.hexValue(of: character) else {
                throw .notHexDigit(input: hex, character: character)
            }
            nibbles.append(value)
        }

        switch nibbles.count {
        case 3, 4:
            // One digit per component: "f" means "ff", so multiply by 0x11.
            let bytes = nibbles.map { $0 &* 17 }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2],
                      alpha: bytes.count == 4 ? bytes[3] : 255)
        case 6, 8:
            let bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2],
                      alpha: bytes.count == 4 ? bytes[3] : 255)
        default:
            throw .wrongLength(input: hex, digits: nibbles.count)
        }
    }

    /// The canonical form: lowercase `#rrggbb`, or `#rrggbbaa` when the colour is not opaque.
    /// This is what documents are written with, and `Color(hex: color.hex)` gives back `color`.
    public var hex: String {
        var result = "#"
        result.reserveCapacity(9)
        let bytes = isOpaque ? [red, green, blue] : [red, green, blue, alpha]
        for byte in bytes {
            result.append(Color.hexDigits[Int(byte >> 4)])
            result.append(Color.hexDigits[Int(byte & 0x0f)])
        }
        return result
    }

    public var isOpaque: Bool { alpha == 255 }

    /// Black or white, whichever stays legible on this colour: the sample app's rule, black
    /// when at least two of red, green and blue are above 65 %. Alpha is not considered.
    public var readableTextColor: Color {
        let bright = [red, green, blue].filter { Double($0) / 255 > 0.65 }.count
        return bright >= 2 ? .black : .white
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")

    /// ASCII hex digits only: `Character.isHexDigit` also accepts full-width forms.
    private static func hexValue(of character: Character) -> UInt8? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ascii - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ascii - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return ascii - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Color: CustomStringConvertible {
    public var description: String { hex }
}

/// A colour is a single string in a document, as CSS writes it.
extension Color: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(hex: text)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: error.description,
                underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

/// Why a string is not a hex colour. `description` names what was found and what is accepted.
public enum ColorParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace (or nothing at all).
    case empty(input: String)
    /// Does not start with `#` (after trimming), e.g. `ff0000` or `red`.
    case missingHash(input: String)
    /// A character after the `#` that is not an ASCII hex digit.
    case notHexDigit(input: String, character: Character)
    /// Only hex digits, but not 3, 4, 6 or 8 of them.
    case wrongLength(input: String, digits: Int)

    /// The string that failed to parse, as given.
    public var input: String {
        switch self {
        case .empty(let input), .missingHash(let input),
             .notHexDigit(let input, _), .wrongLength(let input, _):
            return input
        }
    }

    public var description: String {
        let expected = "expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA"
        switch self {
        case .empty(let input):
            if input.isEmpty {
                return "the colour is empty: \(expected)"
            }
            return "\(Self.quoted(input)) has only whitespace: \(expected)"
        case .missingHash(let input):
            return "\(Self.quoted(input)) is not a hex colour: it must start with '#'; \(expected)"
        case .notHexDigit(let input, let character):
            return "\(Self.quoted(input)) has \(Self.quoted(String(character))), which is not a hex digit: \(expected)"
        case .wrongLength(let input, let digits):
            let found = digits == 1 ? "1 hex digit" : "\(digits) hex digits"
            return "\(Self.quoted(input)) is not a hex colour: \(expected), found \(found)"
        }
    }

    /// Quoted with escapes, so blanks, quotes and newlines in the input stay visible; long
    /// input is cut, since a message should fit on a status line.
    private static func quoted(_ text: String) -> String {
        let limit = 40
        if text.count > limit {
            return String(reflecting: String(text.prefix(limit))).dropLast() + "…\""
        }
        return String(reflecting: text)
    }
}

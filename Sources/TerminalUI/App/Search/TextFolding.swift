import Foundation

/// Text as the filter and the sort compare it: lower-cased, accents dropped (`Brontë` is
/// `bronte`), as UTF-8 bytes so a plain byte search scans 100,000 rows within a frame.
enum TextFolding {
    static func fold(_ text: String) -> [UInt8] {
        // Most text is ASCII: lower-case its bytes without building strings.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else { return Array(foldedString(text).utf8) }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return bytes
    }

    /// Lower-cased, decomposed (é is e and a combining accent), combining marks dropped.
    static func foldedString(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

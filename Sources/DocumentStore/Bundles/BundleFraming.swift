import Foundation

/// The framing of a Firestore bundle: elements one after another, each the length of its JSON
/// in bytes, written in decimal digits, then that JSON object. The first element is the
/// bundle's metadata; its size does not count in the bundle's `totalBytes`.
enum BundleFraming {
    /// One element: its JSON object and how many bytes it took, prefix included.
    struct Frame {
        let object: [String: JSONValue]
        let byteCount: Int
    }

    /// An element's length prefix has at most this many digits (Firebase's limit: 10 digits
    /// would be an element of gigabytes, and a document is at most a megabyte).
    private static let maxPrefixDigits = 9

    /// The bundle's elements, in order; a corrupt bundle fails naming the element and its byte.
    static func frames(of data: Data) throws -> [Frame] {
        let bytes = [UInt8](data)
        var frames: [Frame] = []
        var offset = 0
        while offset < bytes.count {
            let start = offset
            var length = 0
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "{") {
                let byte = bytes[offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), offset - start < maxPrefixDigits else {
                    throw corrupt(frames.count, at: start, "expected the length of the next element in decimal digits, then its JSON object")
                }
                length = length * 10 + Int(byte - UInt8(ascii: "0"))
                offset += 1
            }
            guard offset > start else { throw corrupt(frames.count, at: start, "the element has no length prefix") }
            guard offset < bytes.count else { throw corrupt(frames.count, at: start, "the bundle ends after a length prefix") }
            guard length <= bytes.count - offset else {
                throw corrupt(frames.count, at: start, "the length prefix says \(length) bytes, but only \(bytes.count - offset) remain")
            }
            let json: JSONValue
            do { json = try JSONParser.parse(bytes[offset..<offset + length], input: .text) } catch {
                throw corrupt(frames.count, at: start, "its JSON cannot be read: \(error)")
            }
            guard case .object(let object) = json else { throw corrupt(frames.count, at: start, "expected a JSON object, found \(json.described)") }
            offset += length
            frames.append(Frame(object: object, byteCount: offset - start))
        }
        return frames
    }

    static func corrupt(_ index: Int, at offset: Int, _ reason: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.invalidArgument, "the bundle is not valid: element \(index + 1) (byte \(offset)): \(reason)")
    }
}

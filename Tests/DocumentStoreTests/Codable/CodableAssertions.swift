@testable import DocumentStore
import Foundation
import XCTest

// Helpers for the Codable tests: a model beside the fields it must encode to, compared with
// Firestore's typing (an integer is not a double, a Timestamp is not a String).

/// The fields as a canonical text with Firestore's types spelled out: `{a: 1, b: 1.0,
/// t: Timestamp(1970-01-01T00:00:00Z)}`, keys sorted. Equal texts mean equal typed values.
func typedText(_ data: [String: Any], file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
        return typedText(.map(try WriteValue.fields(data, document: "")))
    } catch {
        XCTFail("not document data: \(error)", file: file, line: line)
        return "<\(error)>"
    }
}

func typedText(_ value: WriteValue) -> String {
    switch value {
    case .value(let plain): return typedText(plain)
    case .map(let fields): return "{" + fields.keys.sorted().map { "\($0): \(typedText(fields[$0]!))" }.joined(separator: ", ") + "}"
    case .sentinel(let sentinel):
        func items(_ elements: [Any]) -> String {
            elements.map { (try? FirestoreValue(any: $0, field: "", document: "")).map(typedText) ?? "<\($0)>" }.joined(separator: ", ")
        }
        switch sentinel.operation {
        case .arrayUnion(let elements): return "FieldValue.arrayUnion([\(items(elements))])"
        case .arrayRemove(let elements): return "FieldValue.arrayRemove([\(items(elements))])"
        case .increment(let by): return "FieldValue.increment(\(typedText(by)))"
        case .minimum(let value): return "FieldValue.minimum(\(typedText(value)))"
        case .maximum(let value): return "FieldValue.maximum(\(typedText(value)))"
        case .serverTimestamp, .delete: return "FieldValue.\(sentinel)"
        }
    }
}

func typedText(_ value: FirestoreValue) -> String {
    switch value {
    case .null: return "null"
    case .boolean(let b): return "\(b)"
    case .integer(let i): return "\(i)"
    case .double(let d): return FirestoreValue.text(of: d)
    case .timestamp(let t): return "Timestamp(\(t.rfc3339))"
    case .string(let s): return s.debugDescription
    case .bytes(let data): return "Bytes(\(data.base64EncodedString()))"
    case .reference(let reference): return "Reference(\(reference.path))"
    case .geoPoint(let point): return "GeoPoint(\(point.latitude), \(point.longitude))"
    case .array(let items): return "[" + items.map(typedText).joined(separator: ", ") + "]"
    case .map(let fields): return "{" + fields.names.sorted().map { "\($0): \(typedText(fields[$0]!))" }.joined(separator: ", ") + "}"
    }
}

/// Encodes `model` and checks that `Firestore.Encoder` gives exactly `expected`, types included.
@discardableResult
func assertEncodes<T: Encodable>(_ model: T, to expected: [String: Any], with encoder: Firestore.Encoder = Firestore.Encoder(),
                                 file: StaticString = #filePath, line: UInt = #line) -> [String: Any]? {
    do {
        let encoded = try encoder.encode(model)
        XCTAssertEqual(typedText(encoded, file: file, line: line), typedText(expected, file: file, line: line),
                       "\(T.self) encoded", file: file, line: line)
        return encoded
    } catch {
        XCTFail("encoding \(T.self) failed: \(error)", file: file, line: line)
        return nil
    }
}

/// Decodes `data` (with `in` for `@DocumentID`) and checks that it gives `expected`.
func assertDecodes<T: Decodable & Equatable>(_ data: [String: Any], to expected: T, in reference: DocumentReference? = nil,
                                             with decoder: Firestore.Decoder = Firestore.Decoder(),
                                             file: StaticString = #filePath, line: UInt = #line) {
    do {
        let decoded = try decoder.decode(T.self, from: data, in: reference)
        XCTAssertEqual(decoded, expected, file: file, line: line)
    } catch {
        XCTFail("decoding \(T.self) failed: \(error)", file: file, line: line)
    }
}

/// `model` encodes to `fields`, and what it encodes to decodes back to `model`.
func assertRoundTrip<T: Codable & Equatable>(_ model: T, fields: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
    guard let encoded = assertEncodes(model, to: fields, file: file, line: line) else { return }
    assertDecodes(encoded, to: model, file: file, line: line)
}

/// The error decoding `data` as `T` throws, or nil (with a failure) if it decodes.
@discardableResult
func decodingError<T: Decodable>(_ data: [String: Any], as type: T.Type, in reference: DocumentReference? = nil,
                                 file: StaticString = #filePath, line: UInt = #line) -> Error? {
    thrownError(file: file, line: line) { _ = try Firestore.Decoder().decode(T.self, from: data, in: reference) }
}

/// The error encoding `model` throws, or nil (with a failure) if it encodes.
@discardableResult
func encodingError<T: Encodable>(_ model: T, with encoder: Firestore.Encoder = Firestore.Encoder(),
                                 file: StaticString = #filePath, line: UInt = #line) -> Error? {
    thrownError(file: file, line: line) { _ = try encoder.encode(model) }
}

/// What an `EncodingError` says on its own.
func encodingDescription(_ error: Error?) -> String? {
    guard case .invalidValue(_, let context)? = error as? EncodingError else { return nil }
    return context.debugDescription
}

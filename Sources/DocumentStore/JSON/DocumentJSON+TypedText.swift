import Foundation

/// One field's value typed as text by a person, in the typed JSON of the store's files: read as
/// a file's value is, then checked as a write checks it, with messages that say what was
/// expected and where.
extension DocumentJSON {
    /// The value `text` stands for (`Firestore.value(fromStoredJSON:field:)`).
    static func value(typedText text: String, field name: String, store: Firestore) throws -> Any {
        func fail(_ message: String) -> FirestoreErrorCode { FirestoreErrorCode(.invalidArgument, message) }
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(text.utf8), input: .text)
        } catch {
            throw fail("expected one JSON value (\"text\" in quotes, 42, 4.5, true, null, [ … ], { … }); column \(error.column): \(error.message)")
        }
        if let integer = integerOutOfRange(in: json) {
            throw fail("\(integer) is outside the 64-bit integers (-9223372036854775808 to 9223372036854775807); for a double write it with a fraction or an exponent, such as \(integer.hasPrefix("-") ? "-" : "")1e\(integer.filter(\.isNumber).count - 1)")
        }
        do {
            let value = try self.value(json, field: name, store: store)
            let checked = try WriteLimits.checked([name: value], document: "", store: store)
            return checked[name]!.anyValue
        } catch let failure as Failure {
            throw fail(failure.description)
        } catch let error as DocumentStoreError {
            if case .invalidValue(_, let field, let reason) = error { throw fail("field \(field): \(reason)") }
            throw error.firestoreError
        }
    }

    /// A number written as an integer (no fraction, no exponent) that 64 bits cannot hold: a
    /// file read as it is makes it a double, but a person typing it means the integer.
    private static func integerOutOfRange(in json: JSONValue) -> String? {
        switch json {
        case .number(let text):
            let isInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
            return isInteger && Int64(text) == nil ? text : nil
        case .array(let items): return items.lazy.compactMap(integerOutOfRange).first
        case .object(let fields): return fields.values.lazy.compactMap(integerOutOfRange).first
        default: return nil
        }
    }
}

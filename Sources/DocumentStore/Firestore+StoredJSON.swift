import Foundation

/// Ours: one field's value typed as text in the typed JSON of the store's files (see the
/// README's "On disk"), for tools that let a person edit a value whatever its type. Reads what
/// `DocumentSnapshot.storedJSON(ofField:)` writes as the same value, type and all.
extension Firestore {
    /// The value `text` stands for in the typed JSON of the store's files, as `data()` gives
    /// it, checked as a write checks the field `name` holding it (the name, ranges, nesting, an
    /// array in an array), so `setData` takes it unless the document outgrows 1 MiB. Throws
    /// `invalidArgument` with a message saying what was expected and where, such as
    /// `expected one JSON value (…); column 7: unterminated string` or `field when: {"$timestamp": …} expects an RFC 3339 time…`.
    public func value(fromStoredJSON text: String, field name: String) throws -> Any {
        func fail(_ message: String) -> FirestoreErrorCode { FirestoreErrorCode(.invalidArgument, message) }
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(text.utf8), input: .text)
        } catch {
            throw fail("expected one JSON value (\"text\" in quotes, 42, 4.5, true, null, [ … ], { … }); column \(error.column): \(error.message)")
        }
        if let integer = Self.integerOutOfRange(in: json) {
            throw fail("\(integer) is outside the 64-bit integers (-9223372036854775808 to 9223372036854775807); for a double write it with a fraction or an exponent, such as \(integer.hasPrefix("-") ? "-" : "")1e\(integer.filter(\.isNumber).count - 1)")
        }
        do {
            let value = try DocumentJSON.value(json, field: name, store: self)
            let checked = try WriteLimits.checked([name: value], document: "", store: self)
            return checked[name]!.anyValue
        } catch let failure as DocumentJSON.Failure {
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

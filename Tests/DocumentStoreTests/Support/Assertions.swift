@testable import DocumentStore
import Foundation
import XCTest

/// The error `body` throws, or nil (with a test failure) if it throws nothing.
func thrownError(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> Error? {
    do {
        try body()
        XCTFail("expected an error, but nothing was thrown", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

func thrownError(file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void) async -> Error? {
    do {
        try await body()
        XCTFail("expected an error, but nothing was thrown", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// What a `DecodingError` says on its own: its context's `debugDescription`.
func contextDescription(_ error: Error?) -> String? {
    switch error as? DecodingError {
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?,
         .dataCorrupted(let context)?:
        return context.debugDescription
    default:
        return nil
    }
}

/// The case of a `DecodingError`, as a word, for comparing with a literal.
func decodingCase(_ error: Error?) -> String? {
    switch error as? DecodingError {
    case .typeMismatch?: return "typeMismatch"
    case .valueNotFound?: return "valueNotFound"
    case .keyNotFound?: return "keyNotFound"
    case .dataCorrupted?: return "dataCorrupted"
    default: return nil
    }
}

/// Writes `value` to `ref` with `setData(from:)`, reads it back with `getDocument(as:)`, and
/// checks that what comes back equals what went in.
func assertRoundTrip<T: Codable & Equatable & SendableMetatype>(
    _ value: T, through ref: DocumentReference, file: StaticString = #filePath, line: UInt = #line
) async throws {
    try ref.setData(from: value)
    let back = try await ref.getDocument(as: T.self)
    XCTAssertEqual(back, value, "\(T.self) did not come back equal from \(ref.path)", file: file, line: line)
}

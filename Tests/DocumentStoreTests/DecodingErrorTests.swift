@testable import DocumentStore
import Foundation
import XCTest

/// Point 3: mapping errors are `DecodingError`s that the guide's `switch` understands, and each
/// one's description names the document, the field, what was expected and what was found.
final class DecodingErrorTests: StoreTestCase {
    struct Book: Codable, Equatable {
        @DocumentID var id: String?
        var title: String
        var numberOfPages: Int
        var author: String
    }

    struct Tag: Codable, Equatable {
        var title: String
        var color: String
    }

    struct BookWithTags: Codable {
        @DocumentID var id: String?
        var title: String
        var tags: [Tag]
    }

    struct Language: Codable {
        var name: String
        var year: Date
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try store.writeFile("books/invalid-data.json", """
            {
              "author": "Peter",
              "numberOfPages": "twohundredfifty",
              "title": "SwiftUI and Combine"
            }
            """)
        try store.writeFile("books/no-author.json", #"{"title": "T", "numberOfPages": 1}"#)
        try store.writeFile("books/null-title.json", #"{"title": null, "numberOfPages": 1, "author": "A"}"#)
        try store.writeFile("books/bad-tags.json", ##"{"title": "T", "tags": [{"title": "fun", "color": "#ec4be9"}, {"title": "series", "color": 5}]}"##)
        try store.writeFile("books/short-tag.json", #"{"title": "T", "tags": [{"title": "fun"}]}"#)
        try store.writeFile("books/tags-not-array.json", #"{"title": "T", "tags": {"title": "fun"}}"#)
        try store.writeFile("languages/bad-year.json", #"{"name": "Ada", "year": "1843"}"#)
        try store.writeFile("languages/number-year.json", #"{"name": "Ada", "year": 1843}"#)
    }

    /// The guide's error handling, word for word apart from the assignment target.
    private func guideMessage(for error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context):
            return "typeMismatch: \(context.debugDescription)"
        case DecodingError.valueNotFound(_, let context):
            return "valueNotFound: \(context.debugDescription)"
        case DecodingError.keyNotFound(_, let context):
            return "keyNotFound: \(context.debugDescription)"
        case DecodingError.dataCorrupted(let key):
            return "dataCorrupted: \(key.debugDescription)"
        default:
            return "Error decoding document: \(error.localizedDescription)"
        }
    }

    private func result<T: Decodable & SendableMetatype>(_ path: String, as type: T.Type) -> Result<T, Error>? {
        let done = expectation(description: "getDocument(as:) \(path)")
        var outcome: Result<T, Error>?
        db.document(path).getDocument(as: T.self) { result in
            outcome = result
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        return outcome
    }

    private func message<T: Decodable & SendableMetatype>(_ path: String, as type: T.Type) -> String? {
        switch result(path, as: type) {
        case .failure(let error)?: return guideMessage(for: error)
        case .success(let value)?: return "decoded \(value)"
        case nil: return nil
        }
    }

    func testInvalidDataIsATypeMismatchNamingDocumentFieldExpectedAndFound() {
        XCTAssertEqual(message("books/invalid-data", as: Book.self),
                       #"typeMismatch: document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#)
        guard case .failure(DecodingError.typeMismatch(let type, let context))? = result("books/invalid-data", as: Book.self) else {
            return XCTFail("expected a typeMismatch")
        }
        XCTAssertTrue(type == Int.self)
        XCTAssertEqual(context.codingPath.map(\.stringValue), ["numberOfPages"], "the coding path ends at the field")
    }

    func testAMissingFieldIsKeyNotFound() {
        XCTAssertEqual(message("books/no-author", as: Book.self),
                       "keyNotFound: document books/no-author, field author: expected String, but the field is missing")
        guard case .failure(DecodingError.keyNotFound(let key, _))? = result("books/no-author", as: Book.self) else {
            return XCTFail("expected keyNotFound")
        }
        XCTAssertEqual(key.stringValue, "author")
    }

    func testNullWhereAValueBelongsIsValueNotFound() {
        XCTAssertEqual(message("books/null-title", as: Book.self),
                       "valueNotFound: document books/null-title, field title: expected String, found null")
    }

    func testFieldPathsGoThroughArraysAndMaps() {
        XCTAssertEqual(message("books/bad-tags", as: BookWithTags.self),
                       "typeMismatch: document books/bad-tags, field tags[1].color: expected String, found the number 5")
        XCTAssertEqual(message("books/short-tag", as: BookWithTags.self),
                       "keyNotFound: document books/short-tag, field tags[0].color: expected String, but the field is missing")
        XCTAssertEqual(message("books/tags-not-array", as: BookWithTags.self),
                       "typeMismatch: document books/tags-not-array, field tags: expected an array, found a map")
    }

    /// The words changed with the value model: a timestamp is a type of its own now, and an
    /// RFC 3339 string is still read as one.
    func testABadTimestampIsDataCorrupted() {
        XCTAssertEqual(message("languages/bad-year", as: Language.self),
                       #"dataCorrupted: document languages/bad-year, field year: expected Date as a timestamp or an RFC 3339 string such as 2014-09-09T00:00:00Z, found the string "1843""#)
        XCTAssertEqual(message("languages/number-year", as: Language.self),
                       "typeMismatch: document languages/number-year, field year: expected Date (a timestamp or an RFC 3339 string), found the number 1843")
    }

    struct Visit: Codable {
        var when: Timestamp
        var place: GeoPoint
    }

    func testTimestampsAndGeoPointsSayWhatTheyExpected() {
        try? store.writeFile("visits/number-time.json", #"{"when": 5, "place": {"latitude": 1, "longitude": 2}}"#)
        try? store.writeFile("visits/bad-time.json", #"{"when": "yesterday", "place": {"latitude": 1, "longitude": 2}}"#)
        try? store.writeFile("visits/string-place.json", #"{"when": "2014-09-09T00:00:00Z", "place": "Hamburg"}"#)
        try? store.writeFile("visits/half-place.json", #"{"when": "2014-09-09T00:00:00Z", "place": {"latitude": 1}}"#)
        XCTAssertEqual(message("visits/number-time", as: Visit.self),
                       "typeMismatch: document visits/number-time, field when: expected Timestamp (a timestamp or an RFC 3339 string), found the number 5")
        XCTAssertEqual(message("visits/bad-time", as: Visit.self),
                       #"dataCorrupted: document visits/bad-time, field when: expected Timestamp as a timestamp or an RFC 3339 string such as 2014-09-09T00:00:00Z, found the string "yesterday""#)
        XCTAssertEqual(message("visits/string-place", as: Visit.self),
                       #"typeMismatch: document visits/string-place, field place: expected a GeoPoint (or a map of latitude and longitude), found the string "Hamburg""#)
        XCTAssertEqual(message("visits/half-place", as: Visit.self),
                       "keyNotFound: document visits/half-place, field place.longitude: expected Double, but the field is missing")
    }

    func testAMissingDocumentIsValueNotFoundAndNilWhenOptional() throws {
        XCTAssertEqual(message("books/does-not-exist", as: Book.self),
                       "valueNotFound: document books/does-not-exist does not exist")
        guard case .success(let none)? = result("books/does-not-exist", as: Book?.self) else {
            return XCTFail("Book? of a missing document should succeed")
        }
        XCTAssertNil(none)
    }

    func testAMissingDocumentThroughTheAsyncAPI() async throws {
        let optional = try await db.document("books/does-not-exist").getDocument(as: Book?.self)
        XCTAssertNil(optional)
        let error = await thrownError { _ = try await self.db.document("books/does-not-exist").getDocument(as: Book.self) }
        XCTAssertEqual(decodingCase(error), "valueNotFound")

        let snapshot = try await db.document("books/does-not-exist").getDocument()
        XCTAssertFalse(snapshot.exists)
        XCTAssertNil(snapshot.data())
        XCTAssertNil(try snapshot.data(as: Book?.self))
    }

    func testAnExistingDocumentReadAsOptionalIsDecoded() async throws {
        try store.writeFile("books/hitchhiker.json", #"{"title": "H", "numberOfPages": 816, "author": "Douglas Adams"}"#)
        let book = try await db.document("books/hitchhiker").getDocument(as: Book?.self)
        XCTAssertEqual(book, Book(id: "hitchhiker", title: "H", numberOfPages: 816, author: "Douglas Adams"))
    }

    func testErrorsFromDataAsInAQueryNameTheirDocument() async throws {
        let snapshot = try await db.collection("books").getDocuments()
        var messages: [String: String] = [:]
        for document in snapshot.documents {
            do { _ = try document.data(as: Book.self) } catch { messages[document.documentID] = guideMessage(for: error) }
        }
        XCTAssertEqual(messages["invalid-data"],
                       #"typeMismatch: document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#)
        XCTAssertEqual(messages["no-author"],
                       "keyNotFound: document books/no-author, field author: expected String, but the field is missing")
    }

    func testTheDecoderOnItsOwnNamesTheFieldOnly() {
        let error = thrownError { _ = try Firestore.Decoder().decode(Book.self, from: ["title": "T", "numberOfPages": "many", "author": "A"]) }
        XCTAssertEqual(contextDescription(error), #"field numberOfPages: expected Int, found the string "many""#)
    }
}

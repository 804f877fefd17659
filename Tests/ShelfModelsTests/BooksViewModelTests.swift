import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// The books list: every book of every shape, invalid-data as the only problem, unknown fields,
/// and edits that never drop a field unless asked to.
final class BooksViewModelTests: DemoDataTestCase {
    @MainActor
    private func subscribedModel() async throws -> BooksViewModel {
        let model = BooksViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the books are loaded") { model.live.hasLoaded }
        return model
    }

    @MainActor
    func testEveryBookIsListedWithInvalidDataAsTheOnlyProblem() async throws {
        let model = try await subscribedModel()
        let ids = try documentIDs(in: "books")
        XCTAssertGreaterThanOrEqual(ids.count, 36)
        XCTAssertEqual(model.live.rows.map(\.id), ids)
        XCTAssertNil(model.errorMessage)

        let problems = model.live.problems
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.path, "books/invalid-data")
        XCTAssertEqual(problems.first?.field, "numberOfPages")
        XCTAssertEqual(problems.first?.message,
                       #"document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#)

        for row in model.live.rows where row.id != "invalid-data" {
            let book = try XCTUnwrap(row.model, "\(row.id): \(row.problem?.message ?? "")")
            XCTAssertEqual(book.id, row.id)
            XCTAssertFalse(book.title.isEmpty, row.id)
            XCTAssertFalse(book.author.isEmpty, row.id)
        }
        XCTAssertEqual(model.live.models.count, ids.count - 1)
    }

    @MainActor
    func testEachShapeIsReadWithItsOptionalParts() async throws {
        let model = try await subscribedModel()
        let plain = try XCTUnwrap(model.live.row(id: "hitchhiker")?.model)
        XCTAssertEqual(plain.title, "The Ultimate Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(plain.numberOfPages, 816)
        XCTAssertNil(plain.genres)
        XCTAssertNil(plain.tags)
        XCTAssertNil(plain.cover)
        XCTAssertNil(plain.color)

        XCTAssertEqual(model.live.row(id: "hitchhiker-genre")?.model?.genres, ["Sci-Fi", "Comedy"])
        XCTAssertEqual(model.live.row(id: "hitchhiker-tags")?.model?.tags?.map(\.title), ["fun", "series"])
        XCTAssertEqual(model.live.row(id: "hitchhiker-tags")?.model?.tags?.map(\.color.hex), ["#ec4be9", "#b0f566"])
        let withCover = try XCTUnwrap(model.live.row(id: "hitchhiker-image-urls")?.model)
        XCTAssertEqual(withCover.cover?.small.absoluteString, "https://covers.openlibrary.org/b/id/10555691-S.jpg")
        XCTAssertEqual(withCover.color?.hex, "#fd1c48")

        // The demo books beyond the sample's have genres, tags and covers too.
        let books = model.live.models
        XCTAssertGreaterThan(books.filter { $0.genres != nil }.count, 1)
        XCTAssertGreaterThan(books.filter { $0.tags != nil }.count, 1)
        XCTAssertGreaterThan(books.filter { $0.cover != nil }.count, 1)
    }

    @MainActor
    func testUnknownFieldsOfHitchhiker() async throws {
        let model = try await subscribedModel()
        let hitchhiker = try XCTUnwrap(model.live.row(id: "hitchhiker"))
        let unknown = model.unknownFields(of: hitchhiker)
        XCTAssertEqual(unknown.map(\.name), ["field-doesnt-exist-in-struct"])
        XCTAssertEqual(unknown.first?.value as? String, "hello")

        for id in ["hitchhiker-genre", "hitchhiker-tags", "hitchhiker-image-urls"] {
            XCTAssertEqual(model.unknownFields(of: try XCTUnwrap(model.live.row(id: id))).map(\.name), [], id)
        }
    }

    @MainActor
    func testUpdateKeepsFieldsTheModelDoesNotKnow() async throws {
        let model = try await subscribedModel()
        var book = try XCTUnwrap(model.live.row(id: "hitchhiker")?.model)
        book.numberOfPages = 832
        model.update(book, id: "hitchhiker")
        XCTAssertNil(model.errorMessage)
        let stored = try readJSON("books/hitchhiker.json")
        XCTAssertEqual(stored["numberOfPages"] as? Int, 832)
        XCTAssertEqual(stored["field-doesnt-exist-in-struct"] as? String, "hello")
        XCTAssertEqual(Set(stored.keys), ["title", "numberOfPages", "author", "field-doesnt-exist-in-struct"])
        try await waitUntil("the update is listed") { model.live.row(id: "hitchhiker")?.model?.numberOfPages == 832 }
        XCTAssertEqual(model.unknownFields(of: try XCTUnwrap(model.live.row(id: "hitchhiker"))).map(\.name),
                       ["field-doesnt-exist-in-struct"])
    }

    @MainActor
    func testUpdateRemovingDeletesOnlyTheNamedFieldsTheModelLeftOut() async throws {
        let model = try await subscribedModel()
        var book = try XCTUnwrap(model.live.row(id: "hitchhiker-image-urls")?.model)
        XCTAssertNotNil(book.cover)
        book.cover = nil
        model.update(book, id: "hitchhiker-image-urls", removing: ["cover", "color"])
        XCTAssertNil(model.errorMessage)

        let stored = try readJSON("books/hitchhiker-image-urls.json")
        XCTAssertNil(stored["cover"], "a cleared optional field named in removing is deleted")
        XCTAssertEqual(stored["color"] as? String, "#fd1c48", "a field the model still holds is kept")
        XCTAssertEqual(Set(stored.keys), ["title", "numberOfPages", "author", "color"])
        try await waitUntil("the row has no cover") {
            model.live.row(id: "hitchhiker-image-urls")?.model.map { $0.cover == nil } == true
        }
        XCTAssertEqual(model.live.row(id: "hitchhiker-image-urls")?.model?.color?.hex, "#fd1c48")
    }

    @MainActor
    func testUpdateWithoutRemovingLeavesAClearedOptionalFieldAlone() async throws {
        let model = try await subscribedModel()
        var book = try XCTUnwrap(model.live.row(id: "hitchhiker-genre")?.model)
        book.genres = nil
        book.title = "Retitled"
        model.update(book, id: "hitchhiker-genre")
        let stored = try readJSON("books/hitchhiker-genre.json")
        XCTAssertEqual(stored["title"] as? String, "Retitled")
        XCTAssertEqual(stored["genres"] as? [String], ["Sci-Fi", "Comedy"], "a merge never drops a field by itself")
    }

    @MainActor
    func testAddAndDelete() async throws {
        let model = try await subscribedModel()
        let reference = try XCTUnwrap(model.add(ShelfBook(title: "Piranesi", numberOfPages: 272, author: "Susanna Clarke",
                                                          genres: ["Fantasy"], tags: [Tag(title: "house", color: .white)])))
        let id = reference.documentID
        let stored = try readJSON("books/\(id).json")
        XCTAssertEqual(Set(stored.keys), ["title", "numberOfPages", "author", "genres", "tags"], "nil optionals are left out")
        XCTAssertEqual(stored["tags"] as? [[String: String]], [["title": "house", "color": "#ffffff"]])
        try await waitUntil("the book is listed") { model.live.row(id: id)?.model?.title == "Piranesi" }
        XCTAssertEqual(model.live.rows.map(\.id), try documentIDs(in: "books"))

        model.delete(id: id)
        XCTAssertNil(model.errorMessage)
        XCTAssertFalse(fileExists("books/\(id).json"))
        try await waitUntil("the book is gone") { model.live.row(id: id) == nil }
        XCTAssertEqual(model.live.rows.map(\.id), try documentIDs(in: "books"))
    }

    @MainActor
    func testFixingInvalidDataOnDiskClearsItsProblem() async throws {
        let model = try await subscribedModel()
        try overwriteInPlace("books/invalid-data.json", #"{"author": "Peter", "numberOfPages": 250, "title": "SwiftUI and Combine"}"#)
        try await waitUntil("invalid-data decodes") { model.live.problems.isEmpty }
        XCTAssertEqual(model.live.row(id: "invalid-data")?.model?.numberOfPages, 250)
    }

    @MainActor
    func testTheLookupFetchesByIdOnTheSameStore() async {
        let model = BooksViewModel(db: db)
        await model.lookup.fetchAndMap()
        XCTAssertEqual(model.lookup.book.id, "hitchhiker")
        await model.lookup.fetchAndTryMappingInvalidData()
        XCTAssertEqual(model.lookup.errorMessage,
                       #"document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#)
    }
}

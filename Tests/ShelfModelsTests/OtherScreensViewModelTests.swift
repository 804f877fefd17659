import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// The sample's other screens: cover images, genres, tags, programming languages, offices and
/// articles, each against its demo data.
final class OtherScreensViewModelTests: DemoDataTestCase {
    private func date(_ text: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: text), text)
    }

    // MARK: Mapping custom types

    @MainActor
    func testCustomTypesReadTheThreeCoverURLs() async throws {
        let model = MappingCustomTypesViewModel(db: db)
        XCTAssertNil(model.book)
        await model.fetchBook()
        XCTAssertNil(model.errorMessage)
        let book = try XCTUnwrap(model.book)
        XCTAssertEqual(book.id, "hitchhiker-image-urls")
        XCTAssertEqual(book.title, "The Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(book.numberOfPages, 816)
        let cover = try XCTUnwrap(book.cover)
        XCTAssertEqual(cover.small, URL(string: "https://covers.openlibrary.org/b/id/10555691-S.jpg"))
        XCTAssertEqual(cover.medium, URL(string: "https://covers.openlibrary.org/b/id/10555691-M.jpg"))
        XCTAssertEqual(cover.large, URL(string: "https://covers.openlibrary.org/b/id/10555691-L.jpg"))
        XCTAssertEqual(book.color.hex, "#fd1c48")
    }

    @MainActor
    func testCustomTypesReportABookOfAnotherShape() async throws {
        let model = MappingCustomTypesViewModel(db: db)
        await model.fetchBook(documentId: "hitchhiker")
        XCTAssertNil(model.book)
        let message = try XCTUnwrap(model.errorMessage)
        XCTAssertTrue(message.hasPrefix("document books/hitchhiker, field color: "), message)
    }

    @MainActor
    func testCustomTypesReportABadCoverURL() async throws {
        try writeFile("books/bad-cover.json", """
            {"title": "Bad cover", "author": "A", "numberOfPages": 1, "color": "#000",
             "cover": {"small": "", "medium": "https://example.com/m.jpg", "large": "https://example.com/l.jpg"}}
            """)
        let model = MappingCustomTypesViewModel(db: db)
        await model.fetchBook(documentId: "bad-cover")
        XCTAssertNil(model.book)
        let message = try XCTUnwrap(model.errorMessage)
        XCTAssertTrue(message.hasPrefix("document books/bad-cover, field cover.small: "), message)
    }

    // MARK: Mapping arrays

    @MainActor
    func testArraysReadTheGenresAndAddOne() async throws {
        let model = MappingArraysViewModel(db: db)
        XCTAssertEqual(model.book, .empty)
        XCTAssertEqual(model.availableGenres, ["Action", "Fantasy", "Fairy Tale"])
        await model.fetchBook()
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.book.id, "hitchhiker-genre")
        XCTAssertEqual(model.book.genres, ["Sci-Fi", "Comedy"])

        model.addGenre("Fantasy")
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.book.genres, ["Sci-Fi", "Comedy", "Fantasy"])
        var stored = try readJSON("books/hitchhiker-genre.json")
        XCTAssertEqual(stored["genres"] as? [String], ["Sci-Fi", "Comedy", "Fantasy"])
        XCTAssertEqual(stored["title"] as? String, "The Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(stored["numberOfPages"] as? Int, 816)
        XCTAssertEqual(stored["author"] as? String, "Douglas Adams")

        model.addGenre("Fantasy")
        XCTAssertEqual(model.book.genres, ["Sci-Fi", "Comedy", "Fantasy"], "a genre is added once")
        stored = try readJSON("books/hitchhiker-genre.json")
        XCTAssertEqual(stored["genres"] as? [String], ["Sci-Fi", "Comedy", "Fantasy"])

        let reader = MappingArraysViewModel(db: db)
        await reader.fetchBook()
        XCTAssertEqual(reader.book, model.book)
    }

    @MainActor
    func testArraysAddingAGenreKeepsFieldsTheModelDoesNotKnow() async throws {
        try writeFile("books/genres-and-more.json", """
            {"title": "T", "author": "A", "numberOfPages": 2, "genres": [], "shelf": "top"}
            """)
        let model = MappingArraysViewModel(db: db)
        await model.fetchBook(documentId: "genres-and-more")
        model.addGenre("Action")
        let stored = try readJSON("books/genres-and-more.json")
        XCTAssertEqual(stored["genres"] as? [String], ["Action"])
        XCTAssertEqual(stored["shelf"] as? String, "top")
    }

    @MainActor
    func testArraysANewBookIsAddedOnItsFirstSave() async throws {
        let before = Set(try documentIDs(in: "books"))
        let model = MappingArraysViewModel(db: db)
        model.book = BookWithGenre(title: "The Hobbit", numberOfPages: 310, author: "J. R. R. Tolkien", genres: [])
        model.addGenre("Fairy Tale")
        XCTAssertNil(model.errorMessage)
        let id = try XCTUnwrap(model.book.id)
        XCTAssertEqual(Set(try documentIDs(in: "books")), before.union([id]))
        XCTAssertEqual(try readJSON("books/\(id).json")["genres"] as? [String], ["Fairy Tale"])

        model.addGenre("Action")
        XCTAssertEqual(model.book.id, id, "the second save goes to the same document")
        XCTAssertEqual(Set(try documentIDs(in: "books")), before.union([id]))
        XCTAssertEqual(try readJSON("books/\(id).json")["genres"] as? [String], ["Fairy Tale", "Action"])
    }

    // MARK: Mapping arrays with nested types

    @MainActor
    func testNestedTypesReadTheTagsAndAddOne() async throws {
        let model = MappingArraysWithNestedTypesViewModel(db: db)
        XCTAssertEqual(model.availableTags.map(\.title), ["Space", "Tea", "Improbability"])
        XCTAssertEqual(model.availableTags.map(\.color.hex), ["#131a2d", "#d8bfbf", "#fd1d48"])
        await model.fetchBook()
        XCTAssertNil(model.errorMessage)
        let book = try XCTUnwrap(model.book)
        XCTAssertEqual(book.id, "hitchhiker-tags")
        XCTAssertEqual(book.tags, [Tag(title: "fun", color: try Color(hex: "#ec4be9")),
                                   Tag(title: "series", color: try Color(hex: "#b0f566"))])

        let space = model.availableTags[0]
        model.addTag(space)
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.book?.tags.last, space)
        let stored = try readJSON("books/hitchhiker-tags.json")
        let tags = try XCTUnwrap(stored["tags"] as? [[String: String]])
        XCTAssertEqual(tags, [["title": "fun", "color": "#ec4be9"],
                              ["title": "series", "color": "#b0f566"],
                              ["title": "Space", "color": "#131a2d"]])
        XCTAssertEqual(stored["title"] as? String, "The Hitchhiker's Guide to the Galaxy")

        model.addTag(space)
        XCTAssertEqual(model.book?.tags.count, 3, "a tag is added once")
        XCTAssertEqual((try readJSON("books/hitchhiker-tags.json")["tags"] as? [Any])?.count, 3)
    }

    @MainActor
    func testNestedTypesAddingATagBeforeFetchingWritesNothing() throws {
        let before = try String(contentsOf: url("books/hitchhiker-tags.json"), encoding: .utf8)
        let model = MappingArraysWithNestedTypesViewModel(db: db)
        model.addTag(model.availableTags[1])
        XCTAssertNil(model.book)
        XCTAssertEqual(try String(contentsOf: url("books/hitchhiker-tags.json"), encoding: .utf8), before)
    }

    @MainActor
    func testNestedTypesReportABadTagColourByItsPlace() async throws {
        try writeFile("books/bad-tag.json", """
            {"title": "T", "author": "A", "numberOfPages": 2,
             "tags": [{"title": "ok", "color": "#fff"}, {"title": "bad", "color": "blue"}]}
            """)
        let model = MappingArraysWithNestedTypesViewModel(db: db)
        await model.fetchBook(documentId: "bad-tag")
        XCTAssertNil(model.book)
        let message = try XCTUnwrap(model.errorMessage)
        XCTAssertTrue(message.hasPrefix(#"document books/bad-tag, field tags[1].color: "blue" is not a hex colour"#), message)
    }

    // MARK: Custom mapping: programming languages

    @MainActor
    func testProgrammingLanguagesListWithAdasOwnProblem() async throws {
        let model = CustomizeMappingViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the languages are loaded") { model.live.hasLoaded }

        let ids = try documentIDs(in: "programming-languages")
        XCTAssertGreaterThanOrEqual(ids.count, 8)
        XCTAssertEqual(model.live.rows.map(\.id), ids)
        XCTAssertEqual(model.programmingLanguages.map(\.id), ids.filter { $0 != "ada" })

        let ada = try XCTUnwrap(model.live.problems.first)
        XCTAssertEqual(model.live.problems.count, 1)
        XCTAssertEqual(ada.path, "programming-languages/ada")
        XCTAssertEqual(ada.field, "language_name")
        XCTAssertEqual(ada.message, "document programming-languages/ada, field language_name: expected String, but the field is missing")
        XCTAssertNil(model.errorMessage)

        let swift = try XCTUnwrap(model.programmingLanguages.first { $0.id == "swift" })
        XCTAssertEqual(swift.name, "Swift")
        XCTAssertEqual(swift.year, try date("2014-09-09T00:00:00Z"))
        XCTAssertEqual(swift.reasonWhyILoveThis, "")
        let typescript = try XCTUnwrap(model.programmingLanguages.first { $0.id == "typescript" })
        XCTAssertEqual(typescript.year, try date("2012-06-06T00:00:00Z"))
        XCTAssertTrue(model.programmingLanguages.contains { $0.name == "BASIC" })

        // Fixing Ada's document on disk clears its problem.
        try writeFile("programming-languages/ada.json", #"{"language_name": "Ada", "year": "1843-01-01T00:00:00Z"}"#)
        try await waitUntil("Ada decodes") { model.live.problems.isEmpty }
        XCTAssertEqual(model.programmingLanguages.first { $0.id == "ada" }?.name, "Ada")
    }

    @MainActor
    func testAddLanguageStoresTheNameUnderLanguageNameAndNeverTheReason() async throws {
        let model = CustomizeMappingViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the languages are loaded") { model.live.hasLoaded }

        let reference = try XCTUnwrap(model.addLanguage(name: "Zig", year: try date("2016-02-08T00:00:00Z")))
        XCTAssertNil(model.errorMessage)
        let stored = try readJSON("programming-languages/\(reference.documentID).json")
        XCTAssertEqual(stored["language_name"] as? String, "Zig")
        XCTAssertEqual(stored["year"] as? [String: String], ["$timestamp": "2016-02-08T00:00:00Z"], "a Date is stored as a tagged timestamp")
        XCTAssertEqual(Set(stored.keys), ["language_name", "year"])

        try await waitUntil("Zig is listed") { model.programmingLanguages.contains { $0.id == reference.documentID } }
        let zig = try XCTUnwrap(model.programmingLanguages.first { $0.id == reference.documentID })
        XCTAssertEqual(zig.name, "Zig")
        XCTAssertEqual(zig.year, try date("2016-02-08T00:00:00Z"))
        XCTAssertEqual(model.live.problems.map(\.path), ["programming-languages/ada"])
    }

    // MARK: GeoPoints

    @MainActor
    func testOfficesAndTheirCoordinates() async throws {
        let model = MappingGeoPointsViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the offices are loaded") { model.live.hasLoaded }

        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.live.problems, [])
        XCTAssertEqual(model.offices.map(\.id), ["googleHAM", "googleNYC", "googleSFO", "googleUK", "googleplex"])
        let expected: [String: (String, Double, Double)] = [
            "googleNYC": ("Google New York", 40.7414688, -74.0033873),
            "googleUK": ("Google UK", 51.5327652, -0.1272025),
            "googleHAM": ("Google Hamburg", 53.553986, 9.9856482),
            "googleplex": ("Googleplex", 37.4207294, -122.084954),
            "googleSFO": ("Google San Francisco", 37.7898829, -122.3915139),
        ]
        for office in model.offices {
            let (name, latitude, longitude) = try XCTUnwrap(expected[office.id ?? ""], "\(office)")
            XCTAssertEqual(office.name, name)
            XCTAssertEqual(office.location, GeoPoint(latitude: latitude, longitude: longitude), name)
        }

        try writeFile("locations/googleZRH.json", #"{"name": "Google Zurich", "location": {"latitude": 47.365, "longitude": 8.5245}}"#)
        try await waitUntil("the new office is listed") { model.offices.contains { $0.id == "googleZRH" } }
        XCTAssertEqual(model.offices.first { $0.id == "googleZRH" }?.location.latitude, 47.365)
    }

    // MARK: Enums

    @MainActor
    func testArticlesInEveryStatusAndAddingOneInReview() async throws {
        let model = MappingEnumsViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the articles are loaded") { model.live.hasLoaded }

        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.live.problems, [])
        XCTAssertEqual(model.articles.map(\.id), try documentIDs(in: "articles"))
        XCTAssertEqual(Set(model.articles.map(\.status)), Set(Article.Status.allCases))
        XCTAssertEqual(model.articles.first { $0.id == "enums-as-raw-values" }?.status, .draft)

        let reference = try XCTUnwrap(model.addArticle(title: "Raw values with spaces", status: .inReview))
        XCTAssertNil(model.errorMessage)
        let stored = try readJSON("articles/\(reference.documentID).json")
        XCTAssertEqual(stored["status"] as? String, "in review")
        XCTAssertEqual(stored["title"] as? String, "Raw values with spaces")
        XCTAssertEqual(stored.count, 2)
        try await waitUntil("the article is listed") { model.articles.contains { $0.id == reference.documentID } }
        XCTAssertEqual(model.articles.first { $0.id == reference.documentID }?.status, .inReview)
    }

    @MainActor
    func testAnArticleWithAnUnknownStatusIsItsOwnProblem() async throws {
        let model = MappingEnumsViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the articles are loaded") { model.live.hasLoaded }
        let count = model.articles.count

        try writeFile("articles/pending.json", #"{"title": "Pending", "status": "inReview"}"#)
        try await waitUntil("the problem is listed") { !model.live.problems.isEmpty }
        let problem = try XCTUnwrap(model.live.problems.first)
        XCTAssertEqual(problem.path, "articles/pending")
        XCTAssertEqual(problem.field, "status")
        XCTAssertTrue(problem.message.hasPrefix("document articles/pending, field status: "), problem.message)
        XCTAssertEqual(model.articles.count, count)

        try writeFile("articles/pending.json", #"{"title": "Pending", "status": "in review"}"#)
        try await waitUntil("the problem clears") { model.live.problems.isEmpty }
        XCTAssertEqual(model.articles.first { $0.id == "pending" }?.status, .inReview)
    }
}

// The guide's code ("Mapping Firestore Data in Swift"), compiled against DocumentStore with only
// `import FirebaseFirestore` replaced, and run on a store seeded with the sample app's data.
//
// Adaptations, each marked "Shelf:" below: the view models are plain classes (no SwiftUI, so no
// ObservableObject or @Published) with an `onUpdate` hook the tests wait on; the colours
// listener decodes `ColorEntry?.self`, because the guide's `if let colorEntry = colorEntry` was
// written for an SDK whose `data(as:)` returned an optional; Tag's colour is a String, as in the
// guide's first version of Tag (Color is SwiftUI's).
import DocumentStore
import Foundation
import XCTest

// MARK: The guide's models

struct Book: Codable {
    @DocumentID var id: String?
    var title: String
    var numberOfPages: Int
    var author: String
}

extension Book {
    static let empty = Book(title: "", numberOfPages: 0, author: "")
}

struct CoverImages: Codable {
    var small: URL
    var medium: URL
    var large: URL
}

struct BookWithCoverImages: Codable {
    @DocumentID var id: String?
    var title: String
    var numberOfPages: Int
    var author: String
    var cover: CoverImages?
}

public struct BookWithGenre: Codable {
    @DocumentID var id: String?
    var title: String
    var numberOfPages: Int
    var author: String
    var genres: [String]
}

struct Tag: Codable, Hashable {
    var title: String
    var color: String
}

struct BookWithTags: Codable {
    @DocumentID var id: String?
    var title: String
    var numberOfPages: Int
    var author: String
    var tags: [Tag]
}

struct ProgrammingLanguage: Identifiable, Codable {
    @DocumentID var id: String?
    var name: String
    var year: Date
    var reasonWhyILoveThis: String = ""

    enum CodingKeys: String, CodingKey {
        case id
        case name = "language_name"
        case year
    }
}

struct Office: Codable {
    @DocumentID var id: String?
    var name: String
    var location: GeoPoint
}

enum Status: String, Codable {
    case draft
    case inReview = "in review"
    case approved
    case published
}

struct Article: Codable {
    @DocumentID var id: String?
    var title: String
    var status: Status
}

struct ColorEntry: Codable {
    @DocumentID var id: String?
    var name: String
    var color: String

    static let empty = ColorEntry(name: "", color: "#ff0000")
}

// MARK: The guide's view models

/// "Manually mapping simple types": the code the guide warns against, which must still work.
final class ManuallyMappingSimpleTypesViewModel {
    var book: Book = .empty
    var errorMessage: String?
    var onUpdate: (() -> Void)?  // Shelf: lets the test wait for the callback
    private var db = Firestore.firestore()

    func fetchBook(documentId: String) {
        let docRef = db.collection("books").document(documentId)
        docRef.getDocument { document, error in
            if let error = error as NSError? {
                self.errorMessage = "Error getting document: \(error.localizedDescription)"
            }
            else {
                if let document = document {
                    let id = document.documentID
                    let data = document.data()
                    let title = data?["title"] as? String ?? ""
                    let numberOfPages = data?["numberOfPages"] as? Int ?? 0
                    let author = data?["author"] as? String ?? ""
                    self.book = Book(id:id, title: title, numberOfPages: numberOfPages, author: author)
                }
            }
            self.onUpdate?()  // Shelf
        }
    }
}

/// "Mapping simple types" with the guide's error handling.
final class MappingSimpleTypesViewModel {
    var book: Book = .empty
    var errorMessage: String?
    var onUpdate: (() -> Void)?  // Shelf
    private var db = Firestore.firestore()

    func fetchAndMap() {
        fetchBook(documentId: "hitchhiker")
    }

    func fetchAndMapNonExisting() {
        fetchBook(documentId: "does-not-exist")
    }

    func fetchAndTryMappingInvalidData() {
        fetchBook(documentId: "invalid-data")
    }

    private func fetchBook(documentId: String) {
        let docRef = db.collection("books").document(documentId)
        docRef.getDocument(as: Book.self) { result in
            switch result {
            case .success(let book):
                // A Book value was successfully initialized from the DocumentSnapshot.
                self.book = book
                self.errorMessage = nil
            case .failure(let error):
                // A Book value could not be initialized from the DocumentSnapshot.
                switch error {
                case DecodingError.typeMismatch(_, let context):
                    self.errorMessage = "\(error.localizedDescription): \(context.debugDescription)"
                case DecodingError.valueNotFound(_, let context):
                    self.errorMessage = "\(error.localizedDescription): \(context.debugDescription)"
                case DecodingError.keyNotFound(_, let context):
                    self.errorMessage = "\(error.localizedDescription): \(context.debugDescription)"
                case DecodingError.dataCorrupted(let key):
                    self.errorMessage = "\(error.localizedDescription): \(key)"
                default:
                    self.errorMessage = "Error decoding document: \(error.localizedDescription)"
                }
            }
            self.onUpdate?()  // Shelf
        }
    }

    /// The guide's first, shorter version: `document.data(as:)` inside `getDocument`.
    func fetchBookWithDataAs(documentId: String) {
        let docRef = db.collection("books").document(documentId)
        docRef.getDocument { document, error in
            if let error = error as NSError? {
                self.errorMessage = "Error getting document: \(error.localizedDescription)"
            }
            else {
                if let document = document {
                    do {
                        self.book = try document.data(as: Book.self)
                    }
                    catch {
                        print(error)
                        self.errorMessage = "\(error)"  // Shelf: kept for the test instead of only printed
                    }
                }
            }
            self.onUpdate?()  // Shelf
        }
    }

    func updateBook(book: Book) {
        if let id = book.id {
            let docRef = db.collection("books").document(id)
            do {
                try docRef.setData(from: book)
            }
            catch {
                print(error)
            }
        }
    }

    func addBook(book: Book) {
        let collectionRef = db.collection("books")
        do {
            let newDocReference = try collectionRef.addDocument(from: self.book)
            print("Book stored with new document reference: \(newDocReference)")
        }
        catch {
            print(error)
        }
    }
}

/// "Handling errors in real-time updates": the colours listener.
final class MappingColorsViewModel {
    var colorEntries = [ColorEntry]() { didSet { onUpdate?() } }  // Shelf: didSet
    var newColor = ColorEntry.empty
    var errorMessage: String?
    var onUpdate: (() -> Void)?  // Shelf

    private var db = Firestore.firestore()
    private var listenerRegistration: ListenerRegistration?

    public func unsubscribe() {
        if listenerRegistration != nil {
            listenerRegistration?.remove()
            listenerRegistration = nil
        }
    }

    func subscribe() {
        if listenerRegistration == nil {
            listenerRegistration = db.collection("colors")
                .addSnapshotListener { [weak self] (querySnapshot, error) in
                    guard let documents = querySnapshot?.documents else {
                        self?.errorMessage = "No documents in 'colors' collection"
                        return
                    }

                    self?.colorEntries = documents.compactMap { queryDocumentSnapshot in
                        let result = Result { try queryDocumentSnapshot.data(as: ColorEntry?.self) }  // Shelf: ColorEntry?

                        switch result {
                        case .success(let colorEntry):
                            if let colorEntry = colorEntry {
                                // A ColorEntry value was successfully initialized from the DocumentSnapshot.
                                self?.errorMessage = nil
                                return colorEntry
                            }
                            else {
                                // A nil value was successfully initialized from the DocumentSnapshot,
                                // or the DocumentSnapshot was nil.
                                self?.errorMessage = "Document doesn't exist."
                                return nil
                            }
                        case .failure(let error):
                            // A ColorEntry value could not be initialized from the DocumentSnapshot.
                            switch error {
                            case DecodingError.typeMismatch(_, let context):
                                self?.errorMessage = "\(error.localizedDescription): \(context.debugDescription)"
                            case DecodingError.valueNotFound(_, let context):
                                self?.errorMessage = "\(error.localizedDescription): \(context.debugDescription)"
                            case DecodingError.keyNotFound(_, let context):
                                self?.errorMessage = "\(error.localizedDescription): \(context.debugDescription)"
                            case DecodingError.dataCorrupted(let key):
                                self?.errorMessage = "\(error.localizedDescription): \(key)"
                            default:
                                self?.errorMessage = "Error decoding document: \(error.localizedDescription)"
                            }
                            return nil
                        }
                    }
                }
        }
    }

    func addColorEntry() {
        let collectionRef = db.collection("colors")
        do {
            let newDocReference = try collectionRef.addDocument(from: newColor)
            print("ColorEntry stored with new document reference: \(newDocReference)")
        }
        catch {
            print(error)
        }
    }
}

// MARK: The tests

/// Shelf: the hook each adapted view model calls when its callback has run.
protocol UpdatingViewModel: AnyObject {
    var onUpdate: (() -> Void)? { get set }
}

extension ManuallyMappingSimpleTypesViewModel: UpdatingViewModel {}
extension MappingSimpleTypesViewModel: UpdatingViewModel {}
extension MappingColorsViewModel: UpdatingViewModel {}

final class GuideSnippetsTests: XCTestCase {
    private var scratch: URL!
    private var db: Firestore!
    private let callbacks = DispatchQueue(label: "GuideSnippetsTests.callbacks")

    /// The sample app's data (reference/sample-app.md), as files.
    private static let seed: [String: String] = [
        "books/hitchhiker": """
            {"title": "The Ultimate Hitchhiker's Guide to the Galaxy", "author": "Douglas Adams", "numberOfPages": 816,
             "field-doesnt-exist-in-struct": "hello"}
            """,
        "books/invalid-data": #"{"title": "SwiftUI and Combine", "author": "Peter", "numberOfPages": "twohundredfifty"}"#,
        "books/hitchhiker-genre": """
            {"title": "The Hitchhiker's Guide to the Galaxy", "author": "Douglas Adams", "numberOfPages": 816,
             "genres": ["Sci-Fi", "Comedy"]}
            """,
        "books/hitchhiker-tags": """
            {"title": "The Hitchhiker's Guide to the Galaxy", "author": "Douglas Adams", "numberOfPages": 816,
             "tags": [{"title": "fun", "color": "#ec4be9"}, {"title": "series", "color": "#b0f566"}]}
            """,
        "books/hitchhiker-image-urls": """
            {"title": "The Hitchhiker's Guide to the Galaxy", "author": "Douglas Adams", "numberOfPages": 816, "color": "#fd1c48",
             "cover": {"small": "https://covers.openlibrary.org/b/id/10555691-S.jpg",
                       "medium": "https://covers.openlibrary.org/b/id/10555691-M.jpg",
                       "large": "https://covers.openlibrary.org/b/id/10555691-L.jpg"}}
            """,
        "colors/dZI8vLbiPai2nph7UAxv": ##"{"name": "Carmine Pink", "color": "#f05138"}"##,
        "colors/mjioszEQCPMh0Mxqa7bs": ##"{"name": "Cerise", "color": "#d52c67"}"##,
        "programming-languages/basic": #"{"language_name": "BASIC", "year": "1964-05-01T00:00:00Z"}"#,
        "programming-languages/typescript": #"{"language_name": "TypeScript", "year": "2012-06-06T00:00:00Z"}"#,
        "programming-languages/swift": #"{"language_name": "Swift", "year": "2014-09-09T00:00:00Z"}"#,
        "programming-languages/ada": #"{"name": "Ada", "year": "1843-01-01T00:00:00Z"}"#,
        "locations/googleNYC": #"{"name": "Google New York", "location": {"latitude": 40.7414688, "longitude": -74.0033873}}"#,
        "locations/googleUK": #"{"name": "Google UK", "location": {"latitude": 51.5327652, "longitude": -0.1272025}}"#,
        "locations/googleHAM": #"{"name": "Google Hamburg", "location": {"latitude": 53.553986, "longitude": 9.9856482}}"#,
        "locations/googleplex": #"{"name": "Googleplex", "location": {"latitude": 37.4207294, "longitude": -122.084954}}"#,
        "locations/googleSFO": #"{"name": "Google San Francisco", "location": {"latitude": 37.7898829, "longitude": -122.3915139}}"#,
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("GuideSnippetsTests-\(UUID().uuidString)")
        let data = scratch.appendingPathComponent("data")
        for (path, json) in Self.seed {
            let file = data.appendingPathComponent(path + ".json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(json.utf8).write(to: file)
        }
        let settings = FirestoreSettings()
        settings.dispatchQueue = callbacks
        settings.pollingInterval = 0.05
        db = try Firestore.configure(directory: data, settings: settings)
    }

    override func tearDown() {
        callbacks.sync {}
        try? FileManager.default.removeItem(at: scratch)
        super.tearDown()
    }

    /// Runs `action`, then waits until the view model's callback has run `count` times. The hook
    /// is set on the callback queue, where the view model's callbacks read it.
    private func waitForUpdates(_ count: Int = 1, of viewModel: some UpdatingViewModel, _ action: () -> Void) {
        let updated = expectation(description: "view model updated")
        updated.expectedFulfillmentCount = count
        updated.assertForOverFulfill = false
        callbacks.sync { viewModel.onUpdate = { updated.fulfill() } }
        action()
        wait(for: [updated], timeout: 10)
        callbacks.sync { viewModel.onUpdate = nil }
    }

    func testManualMapping() {
        let viewModel = ManuallyMappingSimpleTypesViewModel()
        waitForUpdates(of: viewModel) { viewModel.fetchBook(documentId: "hitchhiker") }
        XCTAssertEqual(viewModel.book.id, "hitchhiker")
        XCTAssertEqual(viewModel.book.title, "The Ultimate Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(viewModel.book.numberOfPages, 816)
        XCTAssertEqual(viewModel.book.author, "Douglas Adams")
        XCTAssertNil(viewModel.errorMessage)

        // The fragile code's fragility: a string where a number belongs silently becomes 0.
        waitForUpdates(of: viewModel) { viewModel.fetchBook(documentId: "invalid-data") }
        XCTAssertEqual(viewModel.book.numberOfPages, 0)
        XCTAssertEqual(viewModel.book.title, "SwiftUI and Combine")
    }

    func testFetchAndMap() {
        let viewModel = MappingSimpleTypesViewModel()
        waitForUpdates(of: viewModel) { viewModel.fetchAndMap() }
        XCTAssertNil(viewModel.errorMessage)
        XCTAssertEqual(viewModel.book.id, "hitchhiker")
        XCTAssertEqual(viewModel.book.title, "The Ultimate Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(viewModel.book.numberOfPages, 816)
        XCTAssertEqual(viewModel.book.author, "Douglas Adams")
    }

    func testFetchAndMapNonExisting() {
        let viewModel = MappingSimpleTypesViewModel()
        waitForUpdates(of: viewModel) { viewModel.fetchAndMapNonExisting() }
        let message = viewModel.errorMessage ?? ""
        XCTAssertTrue(message.hasSuffix(": document books/does-not-exist does not exist"), message)
        XCTAssertEqual(viewModel.book.title, "", "the book is left as it was")
    }

    func testFetchAndTryMappingInvalidData() {
        let viewModel = MappingSimpleTypesViewModel()
        waitForUpdates(of: viewModel) { viewModel.fetchAndTryMappingInvalidData() }
        let message = viewModel.errorMessage ?? ""
        XCTAssertTrue(message.hasSuffix(#": document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#),
                      message)
    }

    func testTheShorterFetchWithDataAs() {
        let viewModel = MappingSimpleTypesViewModel()
        waitForUpdates(of: viewModel) { viewModel.fetchBookWithDataAs(documentId: "hitchhiker") }
        XCTAssertEqual(viewModel.book.numberOfPages, 816)
        XCTAssertNil(viewModel.errorMessage)
    }

    func testUpdateBookAndAddBook() async throws {
        let viewModel = MappingSimpleTypesViewModel()
        var book = try await db.collection("books").document("hitchhiker").getDocument(as: Book.self)
        book.numberOfPages = 42
        viewModel.updateBook(book: book)
        let updated = try await db.document("books/hitchhiker").getDocument()
        XCTAssertEqual(updated.get("numberOfPages") as? Int, 42)
        XCTAssertNil(updated.get("id"), "@DocumentID is not written")

        // No id, no update.
        viewModel.updateBook(book: Book(title: "Nowhere", numberOfPages: 1, author: "Nobody"))

        let before = try await db.collection("books").getDocuments().count
        viewModel.book = Book(title: "Mapping Firestore Data in Swift", numberOfPages: 1, author: "Peter Friese")
        viewModel.addBook(book: viewModel.book)
        let after = try await db.collection("books").getDocuments()
        XCTAssertEqual(after.count, before + 1)
        let added = after.documents.filter { $0.get("title") as? String == "Mapping Firestore Data in Swift" }
        XCTAssertEqual(added.count, 1)
        XCTAssertEqual(added.first?.documentID.count, 20)
        XCTAssertEqual(try added.first?.data(as: Book.self).author, "Peter Friese")
        XCTAssertTrue(after.documents.allSatisfy { $0.get("title") as? String != "Nowhere" })
    }

    func testCustomTypesArraysAndNestedTypes() async throws {
        let covered = try await db.document("books/hitchhiker-image-urls").getDocument(as: BookWithCoverImages.self)
        XCTAssertEqual(covered.cover?.small, URL(string: "https://covers.openlibrary.org/b/id/10555691-S.jpg"))
        XCTAssertEqual(covered.cover?.medium, URL(string: "https://covers.openlibrary.org/b/id/10555691-M.jpg"))
        XCTAssertEqual(covered.cover?.large, URL(string: "https://covers.openlibrary.org/b/id/10555691-L.jpg"))
        let uncovered = try await db.document("books/hitchhiker").getDocument(as: BookWithCoverImages.self)
        XCTAssertNil(uncovered.cover, "an optional map may be absent")

        var withGenre = try await db.document("books/hitchhiker-genre").getDocument(as: BookWithGenre.self)
        XCTAssertEqual(withGenre.genres, ["Sci-Fi", "Comedy"])
        withGenre.genres.append("Fantasy")
        try db.document("books/hitchhiker-genre").setData(from: withGenre)
        let genres = try await db.document("books/hitchhiker-genre").getDocument(as: BookWithGenre.self).genres
        XCTAssertEqual(genres, ["Sci-Fi", "Comedy", "Fantasy"])

        var withTags = try await db.document("books/hitchhiker-tags").getDocument(as: BookWithTags.self)
        XCTAssertEqual(withTags.tags, [Tag(title: "fun", color: "#ec4be9"), Tag(title: "series", color: "#b0f566")])
        withTags.tags.append(Tag(title: "Improbability", color: "#fd1d48"))
        try db.document("books/hitchhiker-tags").setData(from: withTags)
        let tags = try await db.document("books/hitchhiker-tags").getDocument(as: BookWithTags.self).tags
        XCTAssertEqual(tags.last, Tag(title: "Improbability", color: "#fd1d48"))
    }

    func testProgrammingLanguagesWithCodingKeys() async throws {
        let snapshot = try await db.collection("programming-languages").getDocuments()
        var languages: [String: ProgrammingLanguage] = [:]
        var errors: [String: String] = [:]
        for document in snapshot.documents {
            do {
                languages[document.documentID] = try document.data(as: ProgrammingLanguage.self)
            } catch DecodingError.keyNotFound(_, let context) {
                errors[document.documentID] = context.debugDescription
            }
        }
        XCTAssertEqual(languages["swift"]?.name, "Swift")
        XCTAssertEqual(languages["swift"]?.id, "swift")
        XCTAssertEqual(languages["swift"]?.year, Date(timeIntervalSince1970: 1_410_220_800))
        XCTAssertEqual(languages["typescript"]?.year, Date(timeIntervalSince1970: 1_338_940_800))
        XCTAssertEqual(languages.keys.sorted(), ["basic", "swift", "typescript"])
        XCTAssertEqual(errors, ["ada": "document programming-languages/ada, field language_name: expected String, but the field is missing"])

        var kotlin = ProgrammingLanguage(name: "Kotlin", year: Date(timeIntervalSince1970: 1_455_494_400))
        kotlin.reasonWhyILoveThis = "left out by CodingKeys"
        let ref = try db.collection("programming-languages").addDocument(from: kotlin)
        let stored = try await ref.getDocument()
        XCTAssertEqual(stored.data()?.keys.sorted(), ["language_name", "year"])
        // Changed with the value model: a Date is stored as a timestamp (the seeded files' RFC
        // 3339 strings still read as Dates above), and `get` gives the Timestamp, as Firebase's.
        XCTAssertEqual(stored.get("year") as? Timestamp, Timestamp(seconds: 1_455_494_400, nanoseconds: 0))
    }

    func testOfficesWithGeoPoints() async throws {
        let snapshot = try await db.collection("locations").getDocuments()
        let offices = try snapshot.documents.map { try $0.data(as: Office.self) }
        XCTAssertEqual(offices.map(\.id), ["googleHAM", "googleNYC", "googleSFO", "googleUK", "googleplex"])
        let nyc = try XCTUnwrap(offices.first { $0.id == "googleNYC" })
        XCTAssertEqual(nyc.name, "Google New York")
        XCTAssertEqual(nyc.location, GeoPoint(latitude: 40.7414688, longitude: -74.0033873))
        XCTAssertEqual(nyc.location.latitude, 40.7414688)
        XCTAssertEqual(nyc.location.longitude, -74.0033873)
    }

    func testArticlesWithEnums() async throws {
        let empty = try await db.collection("articles").getDocuments()
        XCTAssertTrue(empty.isEmpty)
        let ref = try db.collection("articles").addDocument(from: Article(title: "Enums", status: .inReview))
        let stored = try await ref.getDocument()
        XCTAssertEqual(stored.get("status") as? String, "in review")
        let article = try await ref.getDocument(as: Article.self)
        XCTAssertEqual(article.status, .inReview)
        XCTAssertEqual(article.id, ref.documentID)
    }

    func testTheColoursListener() throws {
        let viewModel = MappingColorsViewModel()
        waitForUpdates(of: viewModel) { viewModel.subscribe() }
        XCTAssertEqual(viewModel.colorEntries.map(\.name), ["Carmine Pink", "Cerise"])
        XCTAssertEqual(viewModel.colorEntries.map(\.id), ["dZI8vLbiPai2nph7UAxv", "mjioszEQCPMh0Mxqa7bs"])
        XCTAssertNil(viewModel.errorMessage)

        viewModel.newColor = ColorEntry(name: "Space", color: "#131a2d")
        waitForUpdates(of: viewModel) { viewModel.addColorEntry() }
        XCTAssertEqual(viewModel.colorEntries.count, 3)
        XCTAssertEqual(viewModel.colorEntries.filter { $0.name == "Space" }.map(\.color), ["#131a2d"])

        // Another program edits a colour: the listener delivers it.
        waitForUpdates(of: viewModel) {
            try? Data(##"{"name": "Cerise", "color": "#d52c68"}"##.utf8)
                .write(to: scratch.appendingPathComponent("data/colors/mjioszEQCPMh0Mxqa7bs.json"), options: .atomic)
        }
        XCTAssertEqual(viewModel.colorEntries.first { $0.id == "mjioszEQCPMh0Mxqa7bs" }?.color, "#d52c68")

        viewModel.unsubscribe()
        let after = viewModel.colorEntries.count
        let updated = Locked(false)
        callbacks.sync { viewModel.onUpdate = { updated.withLock { $0 = true } } }
        db.collection("colors").addDocument(data: ["name": "Tea", "color": "#d8bfbf"])
        // A listener that joins now is sent Tea; a removed listener's callbacks check that it
        // was removed before they run, so once the queue is drained none can come.
        let witnessed = expectation(description: "a new listener has Tea")
        witnessed.assertForOverFulfill = false
        let witness = db.collection("colors").addSnapshotListener { snapshot, _ in
            if snapshot?.documents.contains(where: { $0.get("name") as? String == "Tea" }) == true { witnessed.fulfill() }
        }
        wait(for: [witnessed], timeout: 30)
        witness.remove()
        callbacks.sync {}
        XCTAssertFalse(updated.withLock { $0 }, "nothing after unsubscribe")
        XCTAssertEqual(viewModel.colorEntries.count, after)
    }

    func testTheColoursListenerReportsABadDocument() throws {
        try Data(##"{"name": 5, "color": "#ffffff"}"##.utf8).write(to: scratch.appendingPathComponent("data/colors/zz-broken.json"))
        let viewModel = MappingColorsViewModel()
        waitForUpdates(of: viewModel) { viewModel.subscribe() }
        XCTAssertEqual(viewModel.colorEntries.map(\.name), ["Carmine Pink", "Cerise"], "the other documents are delivered")
        let message = viewModel.errorMessage ?? ""
        XCTAssertTrue(message.hasSuffix(": document colors/zz-broken, field name: expected String, found the number 5"), message)
        viewModel.unsubscribe()
    }
}

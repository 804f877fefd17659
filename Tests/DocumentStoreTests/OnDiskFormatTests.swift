import DocumentStore
import Foundation
import XCTest

/// Point 1, the files themselves: one `<collection>/<id>.json` per document, pretty-printed with
/// sorted keys, two-space indentation, `"key": value`, a final newline; timestamps (kept to the
/// microsecond, as Firestore keeps them) and GeoPoints tagged as `{"$timestamp": RFC 3339 UTC}` and
/// `{"$geopoint": {latitude, longitude}}`, so they read back typed; URLs and enums as strings.
final class OnDiskFormatTests: StoreTestCase {
    enum Status: String, Codable { case draft, inReview = "in review" }

    struct Cover: Codable { var small: URL }

    struct Book: Codable {
        @DocumentID var id: String?
        var title: String
        var numberOfPages: Int
        var rating: Double
        var available: Bool
        var published: Date
        var updated: Timestamp
        var office: GeoPoint
        var website: URL
        var genres: [String]
        var noTags: [String]
        var cover: Cover
        var extras: [String: String]
        var status: Status
        var subtitle: String?
    }

    func testASmallModelIsWrittenExactlyLikeThis() throws {
        let book = Book(
            id: "ignored",
            title: "Don't Panic: \"42\" – Café ☕\n",
            numberOfPages: 816,
            rating: 4.5,
            available: true,
            published: Date(timeIntervalSince1970: 308_534_400),
            updated: Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_789),
            office: GeoPoint(latitude: 53.553986, longitude: 9.9856482),
            website: URL(string: "https://example.com/books?id=42&lang=en")!,
            genres: ["Sci-Fi", "Comedy"],
            noTags: [],
            cover: Cover(small: URL(string: "https://covers.openlibrary.org/b/id/10555691-S.jpg")!),
            extras: [:],
            status: .inReview,
            subtitle: nil)
        try db.collection("books").document("hitchhiker").write(book)

        XCTAssertEqual(store.fileNames(in: ""), [".shelf", "books"], "the collection, and the store's hidden folder (its write lock)")
        XCTAssertEqual(store.fileNames(in: "books"), ["hitchhiker.json"])
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), """
            {
              "available": true,
              "cover": {
                "small": "https://covers.openlibrary.org/b/id/10555691-S.jpg"
              },
              "extras": {},
              "genres": [
                "Sci-Fi",
                "Comedy"
              ],
              "noTags": [],
              "numberOfPages": 816,
              "office": {
                "$geopoint": {
                  "latitude": 53.553986,
                  "longitude": 9.9856482
                }
              },
              "published": {
                "$timestamp": "1979-10-12T00:00:00Z"
              },
              "rating": 4.5,
              "status": "in review",
              "title": "Don't Panic: \\"42\\" – Café ☕\\n",
              "updated": {
                "$timestamp": "2014-09-09T12:30:00.123456Z"
              },
              "website": "https://example.com/books?id=42&lang=en"
            }

            """)
    }

    func testDictionaryDataIsWrittenTheSameWay() throws {
        try db.document("colors/dZI8vLbiPai2nph7UAxv").write([
            "name": "Carmine Pink",
            "color": "#f05138",
            "seen": Date(timeIntervalSince1970: 1_410_220_800.5),
            "where": GeoPoint(latitude: -33.5, longitude: 151),
            "nothing": NSNull(),
            "ratios": [0.25, 1, -3],
            "nested": ["b": 2, "a": ["z": true, "c": false] as [String: Any]] as [String: Any],
        ])
        XCTAssertEqual(store.readFile("colors/dZI8vLbiPai2nph7UAxv.json"), """
            {
              "color": "#f05138",
              "name": "Carmine Pink",
              "nested": {
                "a": {
                  "c": false,
                  "z": true
                },
                "b": 2
              },
              "nothing": null,
              "ratios": [
                0.25,
                1.0,
                -3.0
              ],
              "seen": {
                "$timestamp": "2014-09-09T00:00:00.500Z"
              },
              "where": {
                "$geopoint": {
                  "latitude": -33.5,
                  "longitude": 151.0
                }
              }
            }

            """)
    }

    func testKeysAreSortedByTheirBytesSoUppercaseComesFirst() throws {
        try db.document("order/keys").write(["b": 1, "B": 2, "a": 3, "ä": 4, "10": 5, "9": 6])
        XCTAssertEqual(store.readFile("order/keys.json"), """
            {
              "10": 5,
              "9": 6,
              "B": 2,
              "a": 3,
              "b": 1,
              "ä": 4
            }

            """)
    }

    func testAnEmptyDocumentIsAnEmptyObject() throws {
        try db.document("empty/doc").write([:])
        XCTAssertEqual(store.readFile("empty/doc.json"), "{}\n")
    }

    func testSubcollectionsLiveInTheDocumentsFolder() async throws {
        let review = db.collection("books").document("hitchhiker").collection("reviews").document("r1")
        XCTAssertEqual(review.path, "books/hitchhiker/reviews/r1")
        try await review.setData(["stars": 5])
        XCTAssertEqual(store.readFile("books/hitchhiker/reviews/r1.json"), "{\n  \"stars\": 5\n}\n")
        // The parent document does not have to exist, as in Firestore.
        let parent = try await db.document("books/hitchhiker").getDocument()
        XCTAssertFalse(parent.exists)
        let deeper = db.document("books/hitchhiker/reviews/r1/replies/first")
        try await deeper.setData(["text": "agreed"])
        XCTAssertEqual(store.readFile("books/hitchhiker/reviews/r1/replies/first.json"), "{\n  \"text\": \"agreed\"\n}\n")
        let replies = try await db.collection("books/hitchhiker/reviews/r1/replies").getDocuments()
        XCTAssertEqual(replies.ids, ["first"])
        // A document's subcollection folder is not a document of its collection.
        let reviews = try await db.collection("books/hitchhiker/reviews").getDocuments()
        XCTAssertEqual(reviews.ids, ["r1"])
    }

    func testFilesWrittenByHandWithOtherFormattingAreRead() async throws {
        try store.writeFile("books/by-hand.json", "\u{FEFF}{\"title\":\"Dune\",\n\t\"numberOfPages\" : 412 , \"tags\":[ ],\"x\":\"\\u00e9\\ud83d\\ude00\\/\"}")
        let snapshot = try await db.document("books/by-hand").getDocument()
        XCTAssertNil(snapshot.readError)
        XCTAssertEqual(snapshot.get("title") as? String, "Dune")
        XCTAssertEqual(snapshot.get("numberOfPages") as? Int, 412)
        XCTAssertEqual(snapshot.get("x") as? String, "é😀/")
        // Rewriting it through the store gives the canonical form.
        try await db.document("books/by-hand").setData(snapshot.data()!)
        XCTAssertEqual(store.readFile("books/by-hand.json"), """
            {
              "numberOfPages": 412,
              "tags": [],
              "title": "Dune",
              "x": "é😀/"
            }

            """)
    }
}

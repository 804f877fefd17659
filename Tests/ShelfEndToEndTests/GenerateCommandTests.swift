import Foundation
import XCTest

/// `shelf generate --data DIR --count N`, run as a user runs it: it writes in batches of 500
/// (Firestore's largest), prints as before, and what it writes decodes. On a server it then
/// has each field's order index made, as Firestore keeps one for every field.
final class GenerateCommandTests: ScratchFolderTestCase {
    private func bookFiles(in data: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("books").path)
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    func testGenerateWritesEveryBookAcrossSeveralBatches() throws {
        let data = scratch.appendingPathComponent("big")
        let result = try run(["generate", "--data", data.path, "--count", "1201"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasPrefix("wrote 1201 books (generated-0000000 to generated-0001200) to \(data.path)/books in "), result.output)
        XCTAssertEqual(result.output.split(separator: "\n").count, 1, "no progress line below 10,000 books: \(result.output)")
        let files = try bookFiles(in: data)
        XCTAssertEqual(files.count, 1201, "500 + 500 + 201")
        XCTAssertEqual(files.first, "generated-0000000.json")
        XCTAssertEqual(files.last, "generated-0001200.json")
        XCTAssertEqual(try String(contentsOf: data.appendingPathComponent("books/generated-0001200.json"), encoding: .utf8), """
            {
              "author": "Ada Lindqvist",
              "genres": [
                "Sci-Fi",
                "Horror"
              ],
              "numberOfPages": 380,
              "title": "The Silent River 13"
            }

            """)

        for file in files {
            let book = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("books/\(file)"))) as? [String: Any]
            let genres = try XCTUnwrap(book?["genres"] as? [String], file)
            XCTAssertEqual(Set(genres).count, genres.count, "\(file) repeats a genre: \(genres)")
        }

        let check = try run(["check", "--data", data.path])
        XCTAssertEqual(check.output, "checked 1201 documents in 1 collection: all decode\n")
        XCTAssertEqual(check.status, 0)
    }

    func testACountBelowOneIsRefused() throws {
        for count in ["0", "-5"] {
            let result = try run(["generate", "--data", scratch.appendingPathComponent("none").path, "--count", count])
            XCTAssertNotEqual(result.status, 0)
            // A negative number is the option's value, not taken for an option of its own.
            XCTAssertTrue(result.output.contains("--count must be at least 1, got \(count)"), result.output)
        }
    }

    /// No default to the person's own library (`$XDG_DATA_HOME/shelf`): the folder is named.
    func testGenerateNeedsAnExplicitDataFolder() throws {
        let home = scratch.appendingPathComponent("xdg")
        let result = try run(["generate", "--count", "2"], environment: ["XDG_DATA_HOME": home.path])
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("generate needs --data <dir>"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path), "nothing is written to the library")
    }

    /// Run again, it goes on numbering after the books it made before: a hand edit stays.
    func testGeneratingAgainAddsBooksAfterTheOnesThereAndOverwritesNothing() throws {
        let data = scratch.appendingPathComponent("big")
        XCTAssertEqual(try run(["generate", "--data", data.path, "--count", "2"]).status, 0)
        let edited = data.appendingPathComponent("books/generated-0000001.json")
        try Data(#"{"author": "Me", "numberOfPages": 1, "title": "Mine now"}"#.utf8).write(to: edited)
        let again = try run(["generate", "--data", data.path, "--count", "2"])
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.hasPrefix("wrote 2 books (generated-0000002 to generated-0000003, after generated-0000001, already there) to \(data.path)/books in "), again.output)
        XCTAssertEqual(try bookFiles(in: data), (0..<4).map { String(format: "generated-%07d.json", $0) })
        XCTAssertEqual(try String(contentsOf: edited, encoding: .utf8), #"{"author": "Me", "numberOfPages": 1, "title": "Mine now"}"#)
    }

    /// The last number is found by the last id in byte order, unless numbers went past seven
    /// digits (`generated-10000000` sorts before `generated-9999999`) or the last id is no number.
    func testNumbersGoOnPastSevenDigitsAndPastIdsThatAreNoNumber() throws {
        let data = scratch.appendingPathComponent("big")
        XCTAssertEqual(try run(["generate", "--data", data.path, "--count", "2"]).status, 0)
        let book = #"{"author": "Me", "numberOfPages": 1, "title": "Mine"}"#
        try Data(book.utf8).write(to: data.appendingPathComponent("books/generated-10000000.json"))
        let past = try run(["generate", "--data", data.path, "--count", "1"])
        XCTAssertTrue(past.output.hasPrefix("wrote 1 book (generated-10000001 to generated-10000001, after generated-10000000, already there)"), past.output)
        try Data(book.utf8).write(to: data.appendingPathComponent("books/generated-9zz.json"))
        let again = try run(["generate", "--data", data.path, "--count", "1"])
        XCTAssertTrue(again.output.hasPrefix("wrote 1 book (generated-10000002 to generated-10000002, after generated-10000001, already there)"), again.output)
        XCTAssertEqual(try String(contentsOf: data.appendingPathComponent("books/generated-10000000.json"), encoding: .utf8), book)
    }

    /// Every field of a book, those the generated books leave out too (the Books list's Tags
    /// column), so the app's first start builds no index beside its first rows.
    func testOnAServerEachFieldsOrderIsMadeReadyOnceTheBooksAreWritten() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase()
        defer { cluster.dropDatabase(database) }
        let result = try run(["generate", "--data", cluster.url(database: database).absoluteString, "--count", "3"])
        XCTAssertEqual(result.status, 0, result.output)
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.dropFirst().map { $0.components(separatedBy: " in ")[0] },
                       ["ordered by author", "ordered by color", "ordered by cover", "ordered by genres", "ordered by numberOfPages",
                        "ordered by tags", "ordered by title"], result.output)
        let valid = "SELECT count(*) FROM pg_index WHERE indisvalid AND indexrelid::regclass::text LIKE 'shelf\\_order\\_%'"
        XCTAssertEqual(try cluster.psql(valid, database: database).trimmingCharacters(in: .whitespacesAndNewlines), "7")
    }
}

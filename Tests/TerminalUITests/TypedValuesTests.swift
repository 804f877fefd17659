import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// Firestore's typed values as the app shows and edits them: `data()` gives NSNumber (booleans
/// included), Timestamp, GeoPoint, Data and DocumentReference; the detail pane, the raw tab and
/// the forms show them readably, undo puts back exactly what was there, and a plain-form write
/// that fails shows in the status line.
@MainActor
final class TypedValuesTests: FolderAppTestCase {
    private var store: Firestore!

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let settings = FirestoreSettings()
        store = try Firestore(directory: folder, settings: settings)
        try store.document("books/hitchhiker").write(Self.typedBook(store))
        try store.document("things/one").write(Self.typedFields(store))
        // Plain JSON as written by hand before typed values: a timestamp string and a map of
        // latitude and longitude.
        try write("programming-languages/c", #"{"language_name": "C", "year": "1972-01-01T00:00:00Z"}"#)
        try write("locations/hand", #"{"name": "By hand", "location": {"latitude": 40.5, "longitude": -74}}"#)
    }

    override func tearDown() async throws {
        store = nil
        try await super.tearDown()
    }

    private func write(_ path: String, _ json: String) throws { try folder.writeDocument(path, json) }

    private func file(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path + ".json"), encoding: .utf8)
    }

    static func typedFields(_ store: Firestore) -> [String: Any] {
        [
            "at": Timestamp(seconds: 1_410_265_800, nanoseconds: 123_456_000),
            "where": GeoPoint(latitude: 53.5, longitude: 9.75),
            "blob": Data([0x00, 0xff, 0x10]),
            "long": Data(repeating: 0xab, count: 20),
            "ref": store.document("books/hitchhiker"),
            "flag": true,
            "count": 42,
            "ratio": 0.5,
            "whole": 2.0,
            "list": [1, true, "x"] as [Any],
            "nothing": NSNull(),
        ]
    }

    static func typedBook(_ store: Firestore) -> [String: Any] {
        typedFields(store).merging(["title": "Typed", "author": "Ada", "numberOfPages": 12]) { $1 }
    }

    /// Takes in what the store holds now (`AppModel.deliver`), then asserts `condition`.
    private func text(_ app: AppModel, _ width: Int = 160, _ height: Int = 30) -> String {
        app.frame(size: Size(width: width, height: height)).canvas.lines.joined(separator: "\n")
    }

    private static let expectedLines = [
        "at: 2014-09-09T12:30:00.123456Z",
        "blob: 3 bytes: 00 ff 10",
        "count: 42",
        "flag: true",
        "list: [1, true, \"x\"]",
        "long: 20 bytes: ab ab ab ab ab ab ab ab …",
        "nothing: null",
        "ratio: 0.5",
        "ref: books/hitchhiker",
        "where: (53.5, 9.75)",
        "whole: 2.0",
    ]

    func testTheBooksDetailShowsEveryTypeReadably() async throws {
        let app = try await makeApp(store: store)
        let screen = text(app)
        for line in Self.expectedLines { XCTAssertTrue(screen.contains(line), "lacks \(line):\n\(screen)") }
        XCTAssertTrue(screen.contains("Pages         12"), screen)
    }

    func testTheRawTabShowsEveryTypeReadably() async throws {
        let app = try await makeApp(store: store)
        let index = try XCTUnwrap(app.tabs.firstIndex { $0.collectionID == "things" })
        app.state.switchTab(to: index)
        try await deliver(app, { app.tab.isLoaded }, "the things tab loads")
        let screen = text(app)
        for line in Self.expectedLines { XCTAssertTrue(screen.contains(line), "lacks \(line):\n\(screen)") }
    }

    func testRawTextOfValues() {
        XCTAssertEqual(RawValue.text(NSNumber(value: true)), "true", "a boolean NSNumber is not the number 1")
        XCTAssertEqual(RawValue.text(NSNumber(value: false)), "false")
        XCTAssertEqual(RawValue.text(NSNumber(value: 1)), "1")
        XCTAssertEqual(RawValue.text(NSNumber(value: Int64.max)), "9223372036854775807")
        XCTAssertEqual(RawValue.text(NSNumber(value: 1.0)), "1.0")
        XCTAssertEqual(RawValue.text(true), "true")
        XCTAssertEqual(RawValue.text(7), "7")
        XCTAssertEqual(RawValue.text(Data()), "0 bytes")
        XCTAssertEqual(RawValue.text(Data([1])), "1 byte: 01")
        XCTAssertEqual(RawValue.text(["b": Timestamp(seconds: 0, nanoseconds: 0), "a": "s"] as [String: Any]),
                       #"{a: "s", b: 1970-01-01T00:00:00Z}"#)
    }

    func testSearchFindsTheTitleAndTheAuthor() async throws {
        let app = try await makeApp(store: store)
        XCTAssertEqual(app.state.visibleRows(of: app.tab).count, 1)
        _ = app.apply(.key(.character("/")))
        for character in "ada" { _ = app.apply(.key(.character(character))) }
        XCTAssertEqual(app.state.visibleRows(of: app.tab).count, 1, "found by its author")
        for character in "x" { _ = app.apply(.key(.character(character))) }
        XCTAssertEqual(app.state.visibleRows(of: app.tab).count, 0)
    }

    // MARK: Undo

    func testUndoingADeleteRestoresTheExactTypedFields() async throws {
        let app = try await makeApp(store: store)
        let before = try file("books/hitchhiker")
        XCTAssertTrue(before.contains(#""$timestamp": "2014-09-09T12:30:00.123456Z""#), before)
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        XCTAssertEqual(app.notice, "Deleted books/hitchhiker (u undoes)")
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored books/hitchhiker")
        XCTAssertEqual(try file("books/hitchhiker"), before, "every field, with its type, byte for byte")
        let snapshot = try await store.document("books/hitchhiker").getDocument()
        XCTAssertEqual(snapshot.get("flag") as? NSNumber, NSNumber(value: true))
        XCTAssertEqual(String(cString: (snapshot.get("flag") as! NSNumber).objCType), "c", "still a boolean")
        XCTAssertEqual(snapshot.get("count") as? Int, 42)
        XCTAssertTrue(["q", "i"].contains(String(cString: (snapshot.get("count") as! NSNumber).objCType)), "still an integer")
        XCTAssertEqual(snapshot.get("ref") as? DocumentReference, store.document("books/hitchhiker"))
    }

    func testUndoingAnEditRestoresTheExactTypedFields() async throws {
        let app = try await makeApp(store: store)
        let before = try file("books/hitchhiker")
        _ = app.apply(.key(.character("e")))
        for _ in 0..<5 { _ = app.apply(.key(.backspace)) }
        for character in "Retyped" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved books/hitchhiker")
        let edited = try file("books/hitchhiker")
        XCTAssertTrue(edited.contains(#""title": "Retyped""#), edited)
        XCTAssertTrue(edited.contains(#""$bytes": "AP8Q""#), "a merge keeps the fields the form does not show: \(edited)")
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored books/hitchhiker")
        XCTAssertEqual(try file("books/hitchhiker"), before)
    }

    // MARK: Forms over typed values

    func testTheLanguageFormReadsATimestampAndAPlainDateString() async throws {
        let app = try await makeApp(store: store)
        _ = app.apply(.key(.character("3")))
        try await deliver(app, { app.tab.isLoaded }, "the languages load")
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.form?.widget.values, ["C", "1972-01-01"], "plain JSON written by hand")
        _ = app.apply(.key(.escape))
        _ = app.apply(.key(.character("a")))
        for character in "Zig" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.tab))
        for character in "2016-02-08" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        let id = try XCTUnwrap(app.notice?.components(separatedBy: "/").last, "\(app.notice ?? "no notice")")
        XCTAssertEqual(try file("programming-languages/\(id)"), """
            {
              "language_name": "Zig",
              "year": {
                "$timestamp": "2016-02-08T00:00:00Z"
              }
            }

            """)
        try await deliver(app, { app.tab.index(of: id) != nil }, "Zig is listed")
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.form?.widget.values, ["Zig", "2016-02-08"], "the stored Timestamp")
    }

    func testTheOfficeFormReadsAGeoPointAndAPlainMap() async throws {
        let app = try await makeApp(store: store)
        _ = app.apply(.key(.character("4")))
        try await deliver(app, { app.tab.isLoaded }, "the offices load")
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.form?.widget.values, ["By hand", "40.5", "-74.0"], "plain JSON written by hand")
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved locations/hand")
        XCTAssertTrue(try file("locations/hand").contains(#""$geopoint""#))
        try await deliver(app, { app.tab.snapshot(at: 0)?.get("location") is GeoPoint }, "the saved office is listed")
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.form?.widget.values, ["By hand", "40.5", "-74.0"], "the stored GeoPoint")
    }

    // MARK: Plain-form errors

    func testAPlainFormWriteErrorShowsInTheStatusLine() async throws {
        let app = try await makeApp(store: store)
        updateMissingDocument()
        try await deliver(app, { app.notice != nil }, "the error arrives")
        XCTAssertEqual(app.notice, "Write failed: document books/missing does not exist (updateData needs an existing document)")
        XCTAssertTrue(text(app, 120).contains("Write failed: document books/missing does not exist"), text(app, 120))
        _ = app.apply(.key(.down))
        XCTAssertNil(app.notice, "it lasts until the next key, as every message")
    }

    /// The plain form, as a synchronous caller writes it (in an async function Swift would pick
    /// the `async throws` overload).
    private func updateMissingDocument() {
        store.document("books/missing").updateData(["title": "T"])
    }
}

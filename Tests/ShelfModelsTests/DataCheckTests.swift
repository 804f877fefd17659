import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// `DataCheck`, behind `shelf check`: every document of the known collections decoded with its
/// model, one problem per failing document.
final class DataCheckTests: DemoDataTestCase {
    private let invalidDataLine = #"document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#
    private let adaLine = "document programming-languages/ada, field language_name: expected String, but the field is missing"

    /// Gives the two failing demo documents what their models expect.
    private func fixTheDemoData() throws {
        try writeFile("books/invalid-data.json", #"{"author": "Peter", "numberOfPages": 250, "title": "SwiftUI and Combine"}"#)
        try writeFile("programming-languages/ada.json", #"{"language_name": "Ada", "year": "1843-01-01T00:00:00Z"}"#)
    }

    func testKnownCollectionsAreTheFiveDemoCollections() throws {
        XCTAssertEqual(KnownCollection.allCases.map(\.rawValue), DemoData.collections)
        let folders = try FileManager.default.contentsOfDirectory(atPath: dataFolder.path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(Set(folders), Set(DemoData.collections))
    }

    func testTheDemoDataHasExactlyInvalidDataAndAda() async throws {
        let check = try await DataCheck.run(on: db)
        XCTAssertEqual(check.checkedDocuments, try documentCount())
        XCTAssertEqual(check.checkedCollections, 5)
        XCTAssertEqual(check.problems.map(\.path), ["books/invalid-data", "programming-languages/ada"])
        XCTAssertEqual(check.problems.map(\.field), ["numberOfPages", "language_name"])
        XCTAssertEqual(check.problems.map(\.message), [invalidDataLine, adaLine])
        XCTAssertEqual(check.report, [
            invalidDataLine,
            adaLine,
            "checked \(try documentCount()) documents in 5 collections: 2 problems",
        ].joined(separator: "\n"))
    }

    func testAFixedCopyAllDecodes() async throws {
        try fixTheDemoData()
        let check = try await DataCheck.run(on: db)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.checkedDocuments, try documentCount())
        XCTAssertEqual(check.report, "checked \(try documentCount()) documents in 5 collections: all decode")
    }

    func testEveryBrokenDocumentIsReportedInCollectionAndIdOrder() async throws {
        try fixTheDemoData()
        try writeFile("colors/zz-bad.json", ##"{"name": "Bad", "color": "#12345"}"##)
        try writeFile("colors/aa-unreadable.json", "not JSON at all")
        try writeFile("locations/nowhere.json", #"{"name": "Nowhere"}"#)
        try writeFile("articles/unknown-status.json", #"{"title": "T", "status": "rejected"}"#)
        let check = try await DataCheck.run(on: db)
        XCTAssertEqual(check.problems.map(\.path),
                       ["colors/aa-unreadable", "colors/zz-bad", "locations/nowhere", "articles/unknown-status"])
        XCTAssertEqual(check.problems.map(\.field), [nil, "color", "location", "status"])
        XCTAssertEqual(check.problems[1].message,
                       ##"document colors/zz-bad, field color: "#12345" is not a hex colour: expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA, found 5 hex digits"##)
        XCTAssertTrue(check.report.hasSuffix("checked \(try documentCount()) documents in 5 collections: 4 problems"), check.report)
        XCTAssertEqual(check.report.split(separator: "\n").count, 5)
    }

    func testAnEmptyFolderChecksNothing() async throws {
        let check = try await DataCheck.run(on: try emptyStore())
        XCTAssertEqual(check.checkedDocuments, 0)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.report, "checked 0 documents in 0 collections: all decode", "only the collections that are there")
    }

    func testOneDocumentAndOneProblemAreSingular() async throws {
        let store = try emptyStore()
        try await store.collection("colors").document("only").setData(["name": "Only", "color": "#1234"])
        var check = try await DataCheck.run(on: store)
        XCTAssertEqual(check.report, "checked 1 document in 1 collection: all decode")
        try await store.collection("colors").document("only").setData(["name": "Only", "color": "#12"])
        check = try await DataCheck.run(on: store)
        XCTAssertEqual(check.problems.count, 1)
        XCTAssertEqual(check.report.split(separator: "\n").last, "checked 1 document in 1 collection: 1 problem")
    }

    func testFoldersWithoutAModelAreReadAsRawDocuments() async throws {
        try fixTheDemoData()
        try writeFile("notes/good.json", #"{"text": "anything goes", "n": 1}"#)
        try writeFile("notes/list.json", "[1, 2, 3]")
        try writeFile("notes/broken.json", #"{"text": "#)
        try writeFile("zines/one.json", #"{"title": "One"}"#)
        let check = try await DataCheck.run(on: db)
        XCTAssertEqual(check.rawCollections, ["notes", "zines"])
        XCTAssertEqual(check.checkedCollections, 7)
        XCTAssertEqual(check.checkedDocuments, try documentCount(in: DemoData.collections + ["notes", "zines"]))
        XCTAssertEqual(check.problems.map(\.path), ["notes/broken", "notes/list"])
        XCTAssertTrue(check.problems[1].message.contains("JSON object"), check.problems[1].message)
        XCTAssertEqual(check.report.split(separator: "\n").last,
                       "checked \(try documentCount(in: DemoData.collections + ["notes", "zines"])) documents in 7 collections (2 without a model, read as raw documents: notes, zines): 2 problems")
    }

    func testStrayTemporaryFilesAreRemovedAndCounted() async throws {
        try fixTheDemoData()
        try await db.collection("colors").document("written").setData(["name": "Written", "color": "#123"])  // a writer was here
        try writeFile("books/.shelf-killed.tmp", #"{"title": "#)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -300)], ofItemAtPath: url("books/.shelf-killed.tmp").path)
        // `shelf check` opens its own store, which sweeps as it opens.
        let check = try await DataCheck.run(on: try Firestore(directory: dataFolder))
        XCTAssertEqual(check.removedStrayFiles, ["books/.shelf-killed.tmp"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: url("books/.shelf-killed.tmp").path))
        XCTAssertTrue(check.report.contains("removed 1 temporary file left by writers that were stopped midway (older than a minute; no document lost): books/.shelf-killed.tmp"), check.report)
        XCTAssertTrue(check.report.hasSuffix("all decode"), check.report)
    }
}

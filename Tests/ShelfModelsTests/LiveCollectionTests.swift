@testable import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// `LiveCollection` applies Firestore's change indices: after any series of changes its rows
/// are the files on disk, in Firestore's order, each with its current content.
final class LiveCollectionTests: DemoDataTestCase {
    @MainActor
    private func subscribedColours() async throws -> LiveCollection<ColorEntry> {
        let live = LiveCollection<ColorEntry>(db.collection("colors"))
        unsubscribeAtEnd { live.unsubscribe() }
        live.subscribe()
        try await waitUntil("the colours are loaded") { live.hasLoaded }
        return live
    }

    private func colourJSON(_ name: String, _ hex: String) -> String {
        #"{"name": "\#(name)", "color": "\#(hex)"}"#
    }

    /// The colour's name as its file has it now, or nil.
    private func nameOnDisk(of id: String) -> String? {
        guard let data = FileManager.default.contents(atPath: url("colors/\(id).json").path),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return json["name"] as? String
    }

    /// Waits until the rows are the files on disk in order, then checks each row's content.
    @MainActor
    private func assertMatchesDisk(_ live: LiveCollection<ColorEntry>, _ step: String,
                                   file: StaticString = #filePath, line: UInt = #line) async throws {
        try await waitUntil("the rows match the files after \(step)", file: file, line: line) {
            try live.rows.map(\.id) == documentIDs(in: "colors")
                && live.rows.allSatisfy { nameOnDisk(of: $0.id) == $0.model?.name }
        }
        XCTAssertEqual(Set(live.rows.map(\.id)).count, live.rows.count, "no row twice after \(step)", file: file, line: line)
    }

    /// Its listener ends with it: one left running would keep a watcher (and its inotify
    /// instance, of the few a user may open) for as long as the store lives.
    @MainActor
    func testALiveCollectionThatGoesAwayStopsListening() async throws {
        var live: LiveCollection<ColorEntry>? = LiveCollection<ColorEntry>(db.collection("colors"))
        live?.subscribe()
        try await waitUntil("the colours are loaded") { live?.hasLoaded == true }
        XCTAssertEqual(db.activeWatcherCount, 1)
        live = nil
        XCTAssertEqual(db.activeWatcherCount, 0)
    }

    @MainActor
    func testTheFirstSnapshotIsInFirestoreOrder() async throws {
        let live = try await subscribedColours()
        let ids = try documentIDs(in: "colors")
        XCTAssertEqual(live.rows.map(\.id), ids)
        // Upper case sorts before lower case: byte order, not a locale's.
        XCTAssertEqual(ids, ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(live.rows.map(\.path), ids.map { "colors/\($0)" })
        XCTAssertEqual(live.models.map(\.id), ids)
    }

    /// "café" with U+00E9 and with "e" + U+0301 are two files and two documents; Swift's `==`
    /// calls them equal, so a position table keyed by `String` would find one for both.
    @MainActor
    func testLookAlikeIdsKeepTheirOwnRows() async throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        try writeFile("colors/\(composed).json", colourJSON("Composed", "#000001"))
        try writeFile("colors/\(decomposed).json", colourJSON("Decomposed", "#000002"))
        let live = try await subscribedColours()
        let first = try XCTUnwrap(live.index(of: composed)), second = try XCTUnwrap(live.index(of: decomposed))
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(live.row(id: composed)?.model?.name, "Composed")
        XCTAssertEqual(live.row(id: decomposed)?.model?.name, "Decomposed")
    }

    @MainActor
    func testRowsKeepFirestoreOrderThroughExternalAddsModifiesAndRemoves() async throws {
        let live = try await subscribedColours()
        let original = try documentIDs(in: "colors")
        XCTAssertGreaterThan(original.count, 10)

        // One at a time: first place, last place, the middle.
        try writeFile("colors/0000first.json", colourJSON("First", "#000001"))
        try await assertMatchesDisk(live, "adding at the front")
        try writeFile("colors/zzzzlast.json", colourJSON("Last", "#000002"))
        try await assertMatchesDisk(live, "adding at the end")
        try writeFile("colors/Mmiddle.json", colourJSON("Middle", "#000003"))
        try await assertMatchesDisk(live, "adding in the middle")

        // Several in one go, so one snapshot carries several changes.
        try writeFile("colors/AAAA.json", colourJSON("Upper A", "#000004"))
        try writeFile("colors/aaaa.json", colourJSON("Lower a", "#000005"))
        try removeFile("colors/\(original[0]).json")
        try removeFile("colors/\(original[original.count / 2]).json")
        try writeFile("colors/\(original[3]).json", colourJSON("Replaced three", "#000006"))
        try removeFile("colors/Mmiddle.json")
        try writeFile("colors/Mmiddle2.json", colourJSON("Middle two", "#000007"))
        try removeFile("colors/\(original[original.count - 1]).json")
        try await assertMatchesDisk(live, "a batch of adds, removes and a replace")

        // Writes through the store, mixed with files from outside.
        let added = try live.add(ColorEntry(name: "Through the store", color: .white))
        try live.delete(id: "0000first")
        try live.update(ColorEntry(name: "Renamed last", color: .black), id: "zzzzlast")
        try overwriteInPlace("colors/\(original[5]).json", colourJSON("Edited five", "#000008"))
        try await assertMatchesDisk(live, "writes through the store and in place")
        XCTAssertNotNil(live.row(id: added.documentID))
        XCTAssertEqual(live.row(id: "zzzzlast")?.model?.name, "Renamed last")

        // Everything removed, then one back.
        for id in try documentIDs(in: "colors") { try removeFile("colors/\(id).json") }
        try await assertMatchesDisk(live, "removing every file")
        XCTAssertEqual(live.rows.count, 0)
        XCTAssertEqual(live.statusMessage, "No documents in 'colors' collection")
        try writeFile("colors/again.json", colourJSON("Again", "#000009"))
        try await assertMatchesDisk(live, "adding one to the empty collection")
        XCTAssertNil(live.statusMessage)
    }

    @MainActor
    func testManyRandomChangesEndInFirestoreOrder() async throws {
        let live = try await subscribedColours()
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("ABCXYZabcxyz0189")
        for round in 0..<6 {
            for _ in 0..<8 {
                let existing = try documentIDs(in: "colors")
                switch generator.next() % 3 {
                case 0 where !existing.isEmpty:
                    try removeFile("colors/\(existing[Int(generator.next() % UInt64(existing.count))]).json")
                case 1 where !existing.isEmpty:
                    let id = existing[Int(generator.next() % UInt64(existing.count))]
                    try writeFile("colors/\(id).json", colourJSON("Round \(round) \(id)", "#123456"))
                default:
                    let id = String((0..<5).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
                    try writeFile("colors/\(id).json", colourJSON("New \(id)", "#654321"))
                }
            }
            try await assertMatchesDisk(live, "round \(round)")
        }
    }

    @MainActor
    func testSubscribingAgainReplacesTheRowsInsteadOfDoublingThem() async throws {
        let live = try await subscribedColours()
        let ids = live.rows.map(\.id)
        live.unsubscribe()
        XCTAssertFalse(live.isSubscribed)
        try writeFile("colors/Between.json", colourJSON("Between", "#0f0f0f"))
        try removeFile("colors/\(ids[1]).json")
        live.subscribe()
        try await waitUntil("the new subscription's rows arrive") { live.row(id: "Between") != nil }
        await db.collection("colors").deliverToListeners()
        XCTAssertEqual(live.rows.map(\.id), try documentIDs(in: "colors"))
    }

    @MainActor
    func testAMissingCollectionIsEmptyUntilAFileAppears() async throws {
        let live = LiveCollection<Article>(try emptyStore().collection("articles"))
        unsubscribeAtEnd { live.unsubscribe() }
        XCTAssertNil(live.statusMessage)
        live.subscribe()
        try await waitUntil("the empty collection is loaded") { live.hasLoaded }
        XCTAssertEqual(live.rows.count, 0)
        XCTAssertEqual(live.statusMessage, "No documents in 'articles' collection")
        XCTAssertNil(live.listenerError)
    }
}

/// A small deterministic generator, so a failing series can be replayed.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

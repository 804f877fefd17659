import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// The guide's "Colors" screen: a live list, add/update/delete, changes by other programs,
/// per-document problems, the empty collection, and subscribe/unsubscribe.
final class MappingColorsViewModelTests: DemoDataTestCase {
    /// A view model subscribed to the demo colours, with its first snapshot applied.
    @MainActor
    private func subscribedModel(on store: Firestore? = nil) async throws -> MappingColorsViewModel {
        let model = MappingColorsViewModel(db: store ?? db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        try await waitUntil("the colours are loaded") { model.live.hasLoaded }
        return model
    }

    /// The colour documents on disk, as `ColorEntry` read straight from the JSON.
    private func coloursOnDisk() throws -> [String: (name: String, color: Color)] {
        var result: [String: (name: String, color: Color)] = [:]
        for id in try documentIDs(in: "colors") {
            let json = try readJSON("colors/\(id).json")
            let name = try XCTUnwrap(json["name"] as? String, id)
            let hex = try XCTUnwrap(json["color"] as? String, id)
            result[id] = (name, try Color(hex: hex))
        }
        return result
    }

    // MARK: Listing

    @MainActor
    func testNewColorStartsEmptyAndRed() {
        let model = MappingColorsViewModel(db: db)
        XCTAssertEqual(model.newColor, .empty)
        XCTAssertEqual(model.newColor.name, "")
        XCTAssertEqual(model.newColor.color.hex, "#ff0000")
        XCTAssertEqual(model.colorEntries, [])
        XCTAssertFalse(model.live.isSubscribed)
    }

    @MainActor
    func testAfterSubscribingEveryDemoColourIsListedAndDecodes() async throws {
        let model = try await subscribedModel()
        let onDisk = try coloursOnDisk()
        XCTAssertGreaterThanOrEqual(onDisk.count, 40)

        XCTAssertEqual(model.live.problems, [])
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.colorEntries.count, onDisk.count)
        XCTAssertEqual(model.colorEntries.map(\.id), try documentIDs(in: "colors"))
        for entry in model.colorEntries {
            let id = try XCTUnwrap(entry.id)
            let stored = try XCTUnwrap(onDisk[id])
            XCTAssertEqual(entry.name, stored.name, id)
            XCTAssertEqual(entry.color, stored.color, id)
        }

        let carmine = try XCTUnwrap(model.colorEntries.first { $0.id == "dZI8vLbiPai2nph7UAxv" })
        XCTAssertEqual(carmine.name, "Carmine Pink")
        XCTAssertEqual(carmine.color.hex, "#f05138")
        let cerise = try XCTUnwrap(model.colorEntries.first { $0.id == "mjioszEQCPMh0Mxqa7bs" })
        XCTAssertEqual(cerise.name, "Cerise")
        XCTAssertEqual(cerise.color.hex, "#d52c67")

        // The demo data has short forms and colours with alpha; they decode too.
        XCTAssertTrue(model.colorEntries.contains { !$0.color.isOpaque }, "some demo colour has alpha")
        let black = try XCTUnwrap(model.colorEntries.first { $0.name == "Black" })
        XCTAssertEqual(black.color, .black)
    }

    @MainActor
    func testSubscribingTwiceKeepsOneListener() async throws {
        let model = MappingColorsViewModel(db: db)
        unsubscribeAtEnd { model.unsubscribe() }
        model.subscribe()
        model.subscribe()
        XCTAssertTrue(model.live.isSubscribed)
        try await waitUntil("the colours are loaded") { model.live.hasLoaded }
        let count = try documentIDs(in: "colors").count
        XCTAssertEqual(model.live.rows.count, count)

        try writeFile("colors/AddedAfterTwoSubscribes.json", ##"{"name": "Added", "color": "#010203"}"##)
        try await waitUntil("the new colour is listed") { model.live.row(id: "AddedAfterTwoSubscribes") != nil }
        await db.collection("colors").deliverToListeners()
        XCTAssertEqual(model.live.rows.count, count + 1, "each change is applied once")
        XCTAssertEqual(model.live.rows.map(\.id), try documentIDs(in: "colors"))

        // One unsubscribe stops everything: a second listener would still deliver.
        model.unsubscribe()
        try await assertNoUpdates(to: model.live, whileWriting: "colors/AfterUnsubscribe.json",
                                  ##"{"name": "Late", "color": "#040506"}"##)
    }

    @MainActor
    func testUnsubscribingTwiceIsHarmlessAndSubscribingAgainReloads() async throws {
        let model = try await subscribedModel()
        let count = model.live.rows.count
        model.unsubscribe()
        model.unsubscribe()
        XCTAssertFalse(model.live.isSubscribed)
        XCTAssertEqual(model.live.rows.count, count, "the rows stay as they were")

        try writeFile("colors/WhileAway.json", ##"{"name": "While away", "color": "#0a0b0c"}"##)
        model.subscribe()
        try await waitUntil("the colour written while unsubscribed is listed") { model.live.row(id: "WhileAway") != nil }
        await db.collection("colors").deliverToListeners()
        XCTAssertEqual(model.live.rows.map(\.id), try documentIDs(in: "colors"), "no row is doubled by the new subscription")
    }

    @MainActor
    func testAfterUnsubscribeNoMoreUpdates() async throws {
        let model = try await subscribedModel()
        model.unsubscribe()
        try await assertNoUpdates(to: model.live, whileWriting: "colors/NotSeen.json", ##"{"name": "Not seen", "color": "#abcdef"}"##)
    }

    /// Writes a file, waits until a separate listener on the same collection has it, lets the
    /// main queue run, and checks that `live` did not change.
    @MainActor
    private func assertNoUpdates(to live: LiveCollection<ColorEntry>, whileWriting relative: String, _ text: String,
                                 file: StaticString = #filePath, line: UInt = #line) async throws {
        let before = live.rows.map(\.id)
        let probe = LiveCollection<ColorEntry>(db.collection("colors"))
        unsubscribeAtEnd { probe.unsubscribe() }
        probe.subscribe()
        try await waitUntil("the probe is loaded") { probe.hasLoaded }
        try writeFile(relative, text)
        let id = String(relative.split(separator: "/").last!.dropLast(".json".count))
        try await waitUntil("the probe sees \(id)") { probe.row(id: id) != nil }
        await db.collection("colors").deliverToListeners()
        XCTAssertNil(live.row(id: id), "an unsubscribed collection got \(id)", file: file, line: line)
        XCTAssertEqual(live.rows.map(\.id), before, file: file, line: line)
    }

    // MARK: Writes through the view model

    @MainActor
    func testAddColorEntryWritesAFileAndTheEntryIsListed() async throws {
        let model = try await subscribedModel()
        model.newColor = ColorEntry(name: "Shelf Teal", color: try Color(hex: "#1A9B8C"))
        let reference = try XCTUnwrap(model.addColorEntry())
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.newColor, .empty, "a fresh newColor after adding")

        let id = reference.documentID
        XCTAssertEqual(reference.path, "colors/\(id)")
        XCTAssertEqual(id.count, 20)
        let stored = try readJSON("colors/\(id).json")
        XCTAssertEqual(stored["color"] as? String, "#1a9b8c")
        XCTAssertEqual(stored["name"] as? String, "Shelf Teal")
        XCTAssertEqual(stored.count, 2, "only name and color are stored")

        try await waitUntil("the new entry is listed") { model.colorEntries.contains { $0.id == id } }
        let entry = try XCTUnwrap(model.colorEntries.first { $0.id == id })
        XCTAssertEqual(entry.name, "Shelf Teal")
        XCTAssertEqual(entry.color.hex, "#1a9b8c")
        XCTAssertEqual(model.colorEntries.map(\.id), try documentIDs(in: "colors"))
    }

    @MainActor
    func testAddingAColourWithAlphaStoresEightDigits() async throws {
        let model = try await subscribedModel()
        model.newColor = ColorEntry(name: "Half Red", color: Color(red: 255, green: 0, blue: 0, alpha: 0x80))
        let id = try XCTUnwrap(model.addColorEntry()).documentID
        XCTAssertEqual(try readJSON("colors/\(id).json")["color"] as? String, "#ff000080")
        try await waitUntil("the new entry is listed") { model.colorEntries.contains { $0.id == id } }
        XCTAssertEqual(model.colorEntries.first { $0.id == id }?.color.alpha, 0x80)
    }

    @MainActor
    func testUpdateColorEntry() async throws {
        let model = try await subscribedModel()
        var cerise = try XCTUnwrap(model.colorEntries.first { $0.id == "mjioszEQCPMh0Mxqa7bs" })
        cerise.name = "Cerise (darker)"
        cerise.color = try Color(hex: "#A0204F")
        model.updateColorEntry(cerise)
        XCTAssertNil(model.errorMessage)

        let stored = try readJSON("colors/mjioszEQCPMh0Mxqa7bs.json")
        XCTAssertEqual(stored["name"] as? String, "Cerise (darker)")
        XCTAssertEqual(stored["color"] as? String, "#a0204f")
        XCTAssertEqual(stored.count, 2)
        try await waitUntil("the update is listed") {
            model.colorEntries.first { $0.id == "mjioszEQCPMh0Mxqa7bs" }?.name == "Cerise (darker)"
        }
        XCTAssertEqual(model.colorEntries.first { $0.id == "mjioszEQCPMh0Mxqa7bs" }?.color.hex, "#a0204f")
        XCTAssertEqual(model.colorEntries.count, try documentIDs(in: "colors").count)
    }

    @MainActor
    func testUpdatingAnEntryWithoutAnIdIsRefusedAndWritesNothing() async throws {
        let model = try await subscribedModel()
        let before = try documentIDs(in: "colors")
        model.updateColorEntry(ColorEntry(name: "Nameless", color: .white))
        let message = try XCTUnwrap(model.errorMessage)
        XCTAssertTrue(message.contains("no id"), message)
        XCTAssertEqual(try documentIDs(in: "colors"), before)

        // The next write that succeeds clears it.
        model.newColor = ColorEntry(name: "Clears", color: .black)
        XCTAssertNotNil(model.addColorEntry())
        XCTAssertNil(model.errorMessage)
    }

    @MainActor
    func testDeleteColorEntry() async throws {
        let model = try await subscribedModel()
        let count = model.colorEntries.count
        model.deleteColorEntry(id: "dZI8vLbiPai2nph7UAxv")
        XCTAssertNil(model.errorMessage)
        XCTAssertFalse(fileExists("colors/dZI8vLbiPai2nph7UAxv.json"))
        try await waitUntil("the entry is gone") { !model.colorEntries.contains { $0.id == "dZI8vLbiPai2nph7UAxv" } }
        XCTAssertEqual(model.colorEntries.count, count - 1)
        XCTAssertEqual(model.colorEntries.map(\.id), try documentIDs(in: "colors"))
    }

    // MARK: Other programs

    @MainActor
    func testAFileAddedModifiedAndRemovedByAnotherProgramArrivesLive() async throws {
        let model = try await subscribedModel()
        let count = model.colorEntries.count

        try writeFile("colors/FromAScript.json", ##"{"name": "From a script", "color": "#336699"}"##)
        try await waitUntil("the added file is listed") { model.colorEntries.contains { $0.id == "FromAScript" } }
        XCTAssertEqual(model.colorEntries.first { $0.id == "FromAScript" }?.color.hex, "#336699")
        XCTAssertEqual(model.colorEntries.count, count + 1)

        try overwriteInPlace("colors/FromAScript.json", ##"{"name": "Edited in place", "color": "#fc0"}"##)
        try await waitUntil("the edit is listed") {
            model.colorEntries.first { $0.id == "FromAScript" }?.name == "Edited in place"
        }
        XCTAssertEqual(model.colorEntries.first { $0.id == "FromAScript" }?.color.hex, "#ffcc00")

        try writeFile("colors/dZI8vLbiPai2nph7UAxv.json", ##"{"name": "Carmine Pink, replaced", "color": "#F05138"}"##)
        try await waitUntil("the replaced file is listed") {
            model.colorEntries.first { $0.id == "dZI8vLbiPai2nph7UAxv" }?.name == "Carmine Pink, replaced"
        }

        try removeFile("colors/FromAScript.json")
        try await waitUntil("the removed file is gone") { !model.colorEntries.contains { $0.id == "FromAScript" } }
        XCTAssertEqual(model.colorEntries.count, count)
        XCTAssertEqual(model.colorEntries.map(\.id), try documentIDs(in: "colors"))
        XCTAssertNil(model.errorMessage)
    }

    @MainActor
    func testACorruptColourKeepsItsOwnProblemAndClearsWhenFixed() async throws {
        let model = try await subscribedModel()
        let count = model.colorEntries.count

        try writeFile("colors/BadHex.json", ##"{"name": "Bad hex", "color": "#12345"}"##)
        try writeFile("colors/NotJSON.json", "{ this is not JSON")
        try await waitUntil("both problems are listed") { model.live.problems.count == 2 }

        XCTAssertEqual(model.colorEntries.count, count, "every other colour still lists")
        XCTAssertEqual(model.live.rows.count, count + 2)
        XCTAssertFalse(model.colorEntries.contains { $0.id == "BadHex" || $0.id == "NotJSON" })

        let badHex = try XCTUnwrap(model.live.row(id: "BadHex")?.problem)
        XCTAssertEqual(badHex.path, "colors/BadHex")
        XCTAssertEqual(badHex.field, "color")
        XCTAssertEqual(badHex.message,
                       ##"document colors/BadHex, field color: "#12345" is not a hex colour: expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA, found 5 hex digits"##)
        XCTAssertNil(model.live.row(id: "BadHex")?.model)

        let notJSON = try XCTUnwrap(model.live.row(id: "NotJSON")?.problem)
        XCTAssertEqual(notJSON.path, "colors/NotJSON")
        XCTAssertNil(notJSON.field, "the whole document is unreadable")
        XCTAssertTrue(notJSON.message.hasPrefix("document colors/NotJSON cannot be read: "), notJSON.message)

        // The screen's error names both, each on its own line.
        let message = try XCTUnwrap(model.errorMessage)
        XCTAssertEqual(Set(message.split(separator: "\n").map(String.init)), [badHex.message, notJSON.message])

        try overwriteInPlace("colors/BadHex.json", ##"{"name": "Bad hex, fixed", "color": "#123456"}"##)
        try await waitUntil("the fixed colour lists") { model.colorEntries.contains { $0.id == "BadHex" } }
        XCTAssertEqual(model.live.problems.map(\.path), ["colors/NotJSON"], "the other problem stays")

        try writeFile("colors/NotJSON.json", ##"{"name": "Now JSON", "color": "#000000"}"##)
        try await waitUntil("no problem is left") { model.live.problems.isEmpty }
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.colorEntries.count, count + 2)
        XCTAssertEqual(model.colorEntries.first { $0.id == "BadHex" }?.color.hex, "#123456")
        XCTAssertEqual(model.colorEntries.first { $0.id == "NotJSON" }?.name, "Now JSON")
    }

    @MainActor
    func testAColourThatIsNotAStringOrIsMissingIsAProblemToo() async throws {
        let model = try await subscribedModel()
        try writeFile("colors/NumberColour.json", #"{"name": "Number", "color": 255}"#)
        try writeFile("colors/NoColour.json", #"{"name": "No colour"}"#)
        try await waitUntil("both problems are listed") { model.live.problems.count == 2 }
        let number = try XCTUnwrap(model.live.row(id: "NumberColour")?.problem)
        XCTAssertEqual(number.field, "color")
        XCTAssertTrue(number.message.hasPrefix("document colors/NumberColour, field color: expected String"), number.message)
        let missing = try XCTUnwrap(model.live.row(id: "NoColour")?.problem)
        XCTAssertEqual(missing.field, "color")
        XCTAssertTrue(missing.message.contains("missing"), missing.message)
    }

    // MARK: An empty collection

    @MainActor
    func testAnEmptyCollectionSaysSoByName() async throws {
        let model = try await subscribedModel(on: try emptyStore())
        XCTAssertEqual(model.colorEntries, [])
        XCTAssertEqual(model.errorMessage, "No documents in 'colors' collection")
        XCTAssertEqual(model.live.statusMessage, "No documents in 'colors' collection")

        model.newColor = ColorEntry(name: "First", color: .white)
        let id = try XCTUnwrap(model.addColorEntry()).documentID
        try await waitUntil("the first colour is listed") { model.colorEntries.map(\.id) == [id] }
        XCTAssertNil(model.errorMessage)

        model.deleteColorEntry(id: id)
        try await waitUntil("the collection is empty again") { model.colorEntries.isEmpty }
        XCTAssertEqual(model.errorMessage, "No documents in 'colors' collection")
    }

    @MainActor
    func testNothingIsSaidBeforeTheFirstSnapshot() {
        let model = MappingColorsViewModel(db: db)
        XCTAssertFalse(model.live.hasLoaded)
        XCTAssertNil(model.errorMessage, "an unloaded list is not an empty one")
    }
}

import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A folder without a model: `e` opens a form with a row per field holding its value as typed
/// JSON, `a` the same form empty; saving writes the whole document, every type kept.
@MainActor
final class RawFormTests: FolderAppTestCase {
    private var file: URL { folder.appendingPathComponent("data/notes/x.json") }

    /// A document of every type, as Shelf writes it (sorted keys, two spaces, final newline),
    /// so saving it unchanged must give back these very bytes.
    private static let document = #"""
        {
          "a.b c": true,
          "big": 9007199254740993,
          "blob": {
            "$bytes": "AAEC/w=="
          },
          "nested": {
            "m": {
              "$map": {
                "$x": 1
              }
            },
            "n": [
              1,
              2.5,
              "two"
            ]
          },
          "nothing": null,
          "place": {
            "$geopoint": {
              "latitude": 51.5,
              "longitude": -0.12
            }
          },
          "ratio": 4.0,
          "ref": {
            "$ref": "books/hitchhiker"
          },
          "title": "First",
          "when": {
            "$timestamp": "2024-05-06T07:08:09.123456Z"
          }
        }

        """#

    private static let names = ["a.b c", "big", "blob", "nested", "nothing", "place", "ratio", "ref", "title", "when"]

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.document.utf8).write(to: file)
    }

    /// The app on the folder's `data`, its drafts under `state`, showing the notes unless it
    /// offers a draft first.
    private func notesApp() async throws -> AppModel {
        let data = folder.appendingPathComponent("data")
        let app = try await makeApp(store: Firestore(directory: data),
                                    draftFile: DraftFile(place: data.path, environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]))
        if case .browse = app.state.mode {} else { return app }
        press(app, "6")
        try await deliver(app, { app.tab.isLoaded && app.tab.rowCount > 0 })
        XCTAssertEqual(app.tab.collectionID, "notes")
        return app
    }

    /// Moves to the row labelled `label` and replaces its text with `text`.
    private func set(_ app: AppModel, _ label: String, to text: String) throws {
        let index = try XCTUnwrap(app.form?.widget.fields.firstIndex { $0.label == label }, "no row \(label)")
        while app.form!.widget.focus != index { _ = app.apply(.key(.tab)) }
        _ = app.apply(.key(.end))
        _ = app.apply(.key(.ctrl("u")))
        press(app, text)
    }

    private func screen(_ app: AppModel) -> String {
        app.frame(size: Size(width: 200, height: 30)).canvas.lines.joined(separator: "\n")
    }

    /// The form's row for `label` as drawn in the detail pane (the right half), runs of spaces
    /// squeezed to one and the focus marker left out.
    private func drawnRow(_ app: AppModel, _ label: String) -> String? {
        for line in app.frame(size: Size(width: 200, height: 30)).canvas.lines {
            let detail = line.dropFirst(100).trimmingCharacters(in: CharacterSet(charactersIn: "│ "))
            var row = detail.split(separator: " ").joined(separator: " ")
            if row.hasPrefix("› ") { row.removeFirst(2) }
            if row.hasPrefix(label + " ") { return row }
        }
        return nil
    }

    private func fileText() throws -> String { try String(contentsOf: file, encoding: .utf8) }

    // MARK: The form

    func testEOpensARowPerFieldInTheDetailOrderHoldingItsTypedJSON() async throws {
        let app = try await notesApp()
        XCTAssertEqual(app.apply(.key(.character("e"))), .keepRunning)
        let form = try XCTUnwrap(app.form)
        XCTAssertEqual(form.spec.title, "Edit notes/x")
        XCTAssertEqual(form.widget.fields.map(\.label), Self.names + ["new field"])
        XCTAssertEqual(form.widget.values, [
            "true",
            "9007199254740993",
            #"{"$bytes": "AAEC/w=="}"#,
            #"{"m": {"$map": {"$x": 1}}, "n": [1, 2.5, "two"]}"#,
            "null",
            #"{"$geopoint": {"latitude": 51.5, "longitude": -0.12}}"#,
            "4.0",
            #"{"$ref": "books/hitchhiker"}"#,
            #""First""#,
            #"{"$timestamp": "2024-05-06T07:08:09.123456Z"}"#,
            "",
        ])
        XCTAssertTrue(form.widget.fields.allSatisfy { $0.message == nil }, "every value on disk is valid as it is")
        XCTAssertEqual(drawnRow(app, "a.b c"), "a.b c true", screen(app))
        XCTAssertEqual(drawnRow(app, "when"), #"when {"$timestamp": "2024-05-06T07:08:09.123456Z"}"#, screen(app))
        XCTAssertEqual(drawnRow(app, "new field"), #"new field name: JSON value, such as pages: 42 or title: "Dune""#, screen(app))
    }

    func testAFieldNestedDeeperThanFirestoreAllowsLeftAloneDoesNotStopASave() async throws {
        let deep = String(repeating: #"{"m": "#, count: 29) + "1" + String(repeating: "}", count: 29)
        try Data(#"{"deep": \#(deep), "title": "First"}"#.utf8).write(to: file)
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        XCTAssertTrue(app.form?.widget.fields.allSatisfy { $0.message == nil } == true, "the deep row, untouched, is not marked")
        try set(app, "title", to: #""Second""#)
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved notes/x")
        let saved = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertEqual(saved["title"] as? String, "Second")
        var level: Any? = saved["deep"]
        for _ in 0..<29 { level = (level as? [String: Any])?["m"] }
        XCTAssertEqual(level as? Int, 1, "the deep value is written back as it was")
    }

    func testSavingUntouchedRowsGivesBackTheSameBytes() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved notes/x")
        XCTAssertNil(app.form)
        XCTAssertEqual(try fileText(), Self.document, "a timestamp, bytes, a reference, a GeoPoint, a map, 2^53 + 1 and 4.0 all kept")
    }

    func testAnEditedValueIsWrittenAndEveryOtherKept() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        try set(app, "title", to: #""Second ✍️""#)
        try set(app, "big", to: "9223372036854775807")
        XCTAssertTrue(app.form!.isDirty)
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved notes/x")
        let expected = Self.document
            .replacingOccurrences(of: #""title": "First""#, with: #""title": "Second ✍️""#)
            .replacingOccurrences(of: "9007199254740993", with: "9223372036854775807")
        XCTAssertEqual(try fileText(), expected)
    }

    func testEachRowSaysAsYouTypeWhatItExpected() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        try set(app, "title", to: "Second")
        XCTAssertEqual(app.form?.widget.fields[8].message,
                       #"expected one JSON value ("text" in quotes, 42, 4.5, true, null, [ … ], { … }); column 1: expected a value, found 'S'"#)
        try set(app, "when", to: #"{"$timestamp": "yesterday"}"#)
        XCTAssertEqual(app.form?.widget.fields[9].message,
                       #"field when: {"$timestamp": …} expects an RFC 3339 time in a string, such as "2014-09-09T12:30:00Z", from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, found the string "yesterday""#)
        try set(app, "nested", to: "[[1]]")
        XCTAssertEqual(app.form?.widget.fields[3].message, "field nested[0]: an array cannot directly hold another array; put the inner array in a map")
        try set(app, "place", to: #"{"$geopoint": {"latitude": 91, "longitude": 0}}"#)
        XCTAssertNotNil(app.form?.widget.fields[5].message)
        try set(app, "blob", to: #"{"$bytes": "AAEC/w=="#)
        XCTAssertEqual(app.form?.widget.fields[2].message,
                       #"expected one JSON value ("text" in quotes, 42, 4.5, true, null, [ … ], { … }); column 21: unterminated string"#)
        XCTAssertTrue(screen(app).contains(#"! field when: {"$timestamp": …} expects an RFC 3339 time"#), screen(app))

        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Not saved: fix the marked fields first")
        guard case .form = app.state.mode else { return XCTFail("the form stays: \(app.state.mode)") }
        XCTAssertEqual(try fileText(), Self.document, "nothing written")
    }

    func testAnEmptiedRowRemovesItsField() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        try set(app, "nested", to: "")
        XCTAssertNil(app.form?.widget.fields[3].message, "empty is not an error: it removes the field")
        XCTAssertEqual(drawnRow(app, "nested"), "nested empty: the field is removed when saved", screen(app))
        _ = app.apply(.key(.enter))
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertEqual(fields.keys.sorted(), Self.names.filter { $0 != "nested" })
    }

    func testTheLastRowAddsAFieldWhoseNameMayHoldDotsSpacesAndColons() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        try set(app, "new field", to: #"pages.total count: {"$timestamp": "2025-01-02T03:04:05Z"}"#)
        XCTAssertNil(app.form?.widget.fields.last?.message)
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Saved notes/x")
        var text = try fileText()
        XCTAssertTrue(text.contains(#"""
              "pages.total count": {
                "$timestamp": "2025-01-02T03:04:05Z"
              },
            """#), text)

        try await deliver(app, { app.tab.snapshot(at: 0)?.get(FieldPath(["pages.total count"])) != nil })
        _ = app.apply(.key(.character("e")))
        XCTAssertEqual(app.form?.widget.fields.map(\.label).contains("pages.total count"), true)
        try set(app, "new field", to: #""a: b": [1, {"deep": true}]"#)
        XCTAssertNil(app.form?.widget.fields.last?.message)
        _ = app.apply(.key(.enter))
        text = try fileText()
        XCTAssertTrue(text.contains(#""a: b": ["#), text)
        XCTAssertTrue(text.contains(#""pages.total count": {"#), text)
    }

    func testTheNewFieldRowSaysWhatItExpected() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        let cases: [(String, String)] = [
            ("pages", #"expected name: JSON value, such as pages: 42 or title: "Dune""#),
            (": 1", "expected a field name before the :"),
            ("pages:", #"expected a JSON value after pages:, such as 42, "text" or true"#),
            ("title: 1", "title is already a field: edit its row above"),
            (#""a: b" 1"#, #"expected : after the name "a: b", then a JSON value"#),
            (#""a: b: 1"#, #"the quoted name needs its closing ", then : and a JSON value"#),
            ("__x__: 1", #"field __x__: field names that begin and end with "__" are reserved"#),
            ("pages: forty", #"expected one JSON value ("text" in quotes, 42, 4.5, true, null, [ … ], { … }); column 1: expected a value, found 'f'"#),
        ]
        for (text, message) in cases {
            try set(app, "new field", to: text)
            XCTAssertEqual(app.form?.widget.fields.last?.message, message, text)
        }
    }

    // MARK: Adding

    func testAOpensTheFormEmptyAndAddsADocumentWithAnAutomaticID() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("a")))
        XCTAssertEqual(app.form?.spec.title, "New document in notes")
        XCTAssertEqual(app.form?.widget.fields.map(\.label), ["Id", "new field"], "an Id left blank, then the fields")
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.notice, "Not saved: nothing to add: write a field in the new field row, as name: JSON value")
        guard case .form = app.state.mode else { return XCTFail("the form stays: \(app.state.mode)") }

        press(app, #"title: "Added ✍️""#)
        _ = app.apply(.key(.enter))
        let notice = try XCTUnwrap(app.notice)
        XCTAssertTrue(notice.hasPrefix("Added notes/"), notice)
        let id = String(notice.dropFirst("Added notes/".count))
        XCTAssertEqual(id.count, 20)
        XCTAssertEqual(try String(contentsOf: file.deletingLastPathComponent().appendingPathComponent(id + ".json"), encoding: .utf8),
                       "{\n  \"title\": \"Added ✍️\"\n}\n")
        XCTAssertEqual(app.state.lists.states["notes"]?.selectedID, id)

        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Removed notes/\(id): the add is undone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.deletingLastPathComponent().appendingPathComponent(id + ".json").path))
    }

    // MARK: Saving safely

    func testUUndoesAnEditExactly() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        try set(app, "title", to: #""Changed""#)
        try set(app, "when", to: "")
        _ = app.apply(.key(.enter))
        XCTAssertNotEqual(try fileText(), Self.document)
        try await deliver(app, { app.tab.snapshot(at: 0)?.get("when") == nil })
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored notes/x")
        XCTAssertEqual(try fileText(), Self.document)
    }

    func testAFileChangedSinceTheFormOpenedAsksOverwriteOrReload() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        try set(app, "title", to: #""Mine""#)
        try Data(Self.document.replacingOccurrences(of: "First", with: "Theirs").utf8).write(to: file)
        try await deliver(app, { app.tab.snapshot(at: 0)?.get("title") as? String == "Theirs" })
        _ = app.apply(.key(.enter))
        guard case .confirm(.conflict(_, deleted: false)) = app.state.mode else { return XCTFail("saving asks: \(app.state.mode)") }
        XCTAssertTrue(screen(app).contains("notes/x changed on disk since this form opened"), screen(app))
        XCTAssertTrue(try fileText().contains("Theirs"), "nothing written before the answer")

        _ = app.apply(.key(.character("n")))
        XCTAssertEqual(app.notice, "Reloaded from disk; your edits were dropped")
        XCTAssertEqual(app.form?.widget.fields[8].text, #""Theirs""#)

        try set(app, "title", to: #""Mine""#)
        try Data(Self.document.replacingOccurrences(of: "First", with: "Again").utf8).write(to: file)
        try await deliver(app, { app.tab.snapshot(at: 0)?.get("title") as? String == "Again" })
        _ = app.apply(.key(.enter))
        guard case .confirm(.conflict(_, deleted: false)) = app.state.mode else { return XCTFail("saving asks again: \(app.state.mode)") }
        _ = app.apply(.key(.character("y")))
        XCTAssertEqual(app.notice, "Saved notes/x")
        XCTAssertEqual(try fileText(), Self.document.replacingOccurrences(of: "First", with: "Mine"))
    }

    func testAWriteTheStoreRefusesIsShownAndTheFormStays() async throws {
        let app = try await notesApp()
        _ = app.apply(.key(.character("e")))
        // Two values of 600,000 bytes: each within a value's limit, together over a document's.
        let half = "\"" + String(repeating: "x", count: 600_000) + "\""
        try set(app, "title", to: "\"x\"")
        guard case .form(var session) = app.state.mode else { return XCTFail("the form is open: \(app.state.mode)") }
        let title = try XCTUnwrap(session.widget.fields.firstIndex { $0.label == "title" })
        let other = try XCTUnwrap(session.widget.fields.firstIndex { $0.label == "big" })
        session.widget.fields[title].text = half
        session.widget.fields[other].text = half
        app.state.mode = .form(session)
        _ = app.apply(.key(.enter))
        XCTAssertTrue(app.notice?.hasPrefix("Not saved: document notes/x is ") == true, app.notice ?? "")
        guard case .form = app.state.mode else { return XCTFail("the form stays: \(app.state.mode)") }
        XCTAssertEqual(app.form?.widget.fields[other].text.count, 600_002, "nothing typed is lost")
        XCTAssertEqual(try fileText(), Self.document)
    }

    func testADraftOfARawFormReopensWithItsText() async throws {
        let first = try await notesApp()
        _ = first.apply(.key(.character("e")))
        try set(first, "title", to: #""Half-typed"#)
        try set(first, "new field", to: "pages: 4")
        let draft = try XCTUnwrap(first.formDraft)
        try XCTUnwrap(first.draftFile).save(draft)

        let second = try await notesApp()
        guard case .confirm(.reopenDraft) = second.state.mode else { return XCTFail("the start offers the draft: \(second.state.mode)") }
        _ = second.apply(.key(.character("y")))
        try await second.deliver()
        second.apply(.replayWaitingKeys)
        XCTAssertEqual(second.form?.spec.title, "Edit notes/x")
        XCTAssertEqual(second.form?.widget.fields[8].text, #""Half-typed"#)
        XCTAssertEqual(second.form?.widget.fields.last?.text, "pages: 4")
        XCTAssertNotNil(second.form?.widget.fields[8].message, "the unfinished string is marked")
    }
}

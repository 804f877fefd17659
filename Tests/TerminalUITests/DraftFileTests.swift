import Foundation
@testable import TerminalUI
import XCTest

final class DraftFileTests: XCTestCase {
    func testTheStateFolderIsXDGStateHomeElseLocalState() {
        let data = "/tmp/some/data"
        let xdg = DraftFile(place: data, environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"])
        XCTAssertEqual(xdg.url.deletingLastPathComponent().path, "/x/state/shelf")
        let home = DraftFile(place: data, environment: ["HOME": "/home/u"])
        XCTAssertEqual(home.url.deletingLastPathComponent().path, "/home/u/.local/state/shelf")
        let relative = DraftFile(place: data, environment: ["XDG_STATE_HOME": "state", "HOME": "/home/u"])
        XCTAssertEqual(relative.url.deletingLastPathComponent().path, "/home/u/.local/state/shelf", "a relative XDG path is ignored, as the spec says")
    }

    func testEachDataFolderHasItsOwnDraft() {
        let environment = ["XDG_STATE_HOME": "/x/state"]
        let a = DraftFile(place: "/data/a", environment: environment)
        let b = DraftFile(place: "/data/b", environment: environment)
        XCTAssertNotEqual(a.url, b.url)
        XCTAssertEqual(a.url, DraftFile(place: "/data/a/", environment: environment).url)
        let server = DraftFile(place: "postgresql://shelf@db1:5432/shelf", environment: environment)
        let other = DraftFile(place: "postgresql://shelf@db2:5432/shelf", environment: environment)
        XCTAssertNotEqual(server.url, other.url, "two servers' databases of the same name")
        XCTAssertNotEqual(server.url, DraftFile(place: "/shelf", environment: environment).url)
    }

    func testADraftRoundTripsAndIsRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DraftFile(place: "/data", environment: ["XDG_STATE_HOME": folder.path])
        XCTAssertNil(file.load())
        let draft = FormDraft(title: "Edit books/x", collectionID: "books", documentID: "x", labels: ["Title"],
                              values: ["Typed ✍️"], initialValues: ["Old"], focus: 0,
                              savedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try file.save(draft)
        XCTAssertEqual(file.load(), draft)
        file.remove()
        XCTAssertNil(file.load())
    }

    func testADraftIsReadableByItsOwnerOnlyInAFolderOnlyTheOwnerCanEnter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DraftFile(place: "/data", environment: ["XDG_STATE_HOME": folder.path])
        // A state folder made earlier, open to all, is closed too.
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let draft = FormDraft(title: "Edit books/x", collectionID: "books", documentID: "x", labels: ["Title"],
                              values: ["a secret typed"], initialValues: ["Old"], focus: 0,
                              savedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try file.save(draft)
        try file.save(draft)  // and again, over the first
        XCTAssertEqual(try permissions(of: file.url), 0o600)
        XCTAssertEqual(try permissions(of: file.url.deletingLastPathComponent()), 0o700)
        XCTAssertEqual(file.load(), draft)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
        XCTAssertEqual(leftovers, [file.url.lastPathComponent], "no temporary file is left beside the draft")
    }

    private func permissions(of url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

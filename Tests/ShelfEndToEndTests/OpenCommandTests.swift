import Foundation
import XCTest

/// `shelf` / `shelf open` refuses what it cannot use before taking the screen: each refusal
/// names the thing and what was expected.
final class OpenCommandTests: TmuxTestCase {
    func testAnEmptyDataPathIsRefused() throws {
        for command in [[], ["check"], ["list"]] {
            let result = try run(command + ["--data", ""])
            XCTAssertEqual(result.status, 1, result.output)
            XCTAssertTrue(result.output.contains("--data is empty: give a folder, a postgresql:// or a firestore:// URL"), result.output)
        }
    }

    /// A URL of a scheme Shelf does not open is refused, naming those it does, not taken for
    /// the relative folder `http:/x`.
    func testAURLOfAnUnknownSchemeIsRefusedNamingTheKnownOnes() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let known = "give a folder path, a postgresql://user:password@host:port/database URL or a firestore://host:port/project[/database] URL"
        for command in [[], ["check"], ["list"], ["generate"], ["serve", "--port", "0"]] {
            let result = try run(command + ["--data", "http://x"])
            XCTAssertEqual(result.status, 1, "\(command): \(result.output)")
            XCTAssertTrue(result.output.contains("--data: Shelf does not open http:// URLs; \(known)"), "\(command): \(result.output)")
        }
        let export = try run(["export", "--data", data.path, "--to", "S3+Bucket://x/y"])
        XCTAssertEqual(export.status, 1, export.output)
        XCTAssertTrue(export.output.contains("--to: Shelf does not open s3+bucket:// URLs; \(known)"), export.output)
    }

    func testANegativePollIntervalSaysTheRange() throws {
        let result = try run(["--poll-interval", "-5"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--poll-interval must be between 10 and 60000 milliseconds, got -5"), result.output)
    }

    func testAnUnknownCommandIsNamedAndTheCommandsListed() throws {
        let result = try run(["chek", "--data", "/nonexistent"])
        XCTAssertEqual(result.status, 64, result.output)
        XCTAssertEqual(result.output, "shelf: unknown command 'chek': the commands are open, check, list, generate, export, serve (see shelf --help)\n")
    }

    /// `--data` before the command is the command's, as the README's order is.
    func testADataFolderGivenBeforeTheCommandIsTheCommands() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let result = try run(["--data", data.path, "list"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("books ("), result.output)
        let equals = try run(["--data=\(data.path)", "check"])
        XCTAssertEqual(equals.status, 1, "the copy's two broken documents: \(equals.output)")
        XCTAssertTrue(equals.output.contains("books/invalid-data"), equals.output)
        // A folder named as a command stays the app's: its own option is checked.
        let named = try run(["--data", "list", "--poll-interval", "5"])
        XCTAssertTrue(named.output.contains("--poll-interval must be between 10 and 60000"), named.output)
    }

    /// A terminal that cannot move the cursor (TERM=dumb) is refused as an unknown one is,
    /// before the screen is touched.
    func testATerminalThatCannotMoveTheCursorIsRefused() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data, term: "dumb")
        session = tmux
        tmux.waitFor(text: "\(TmuxSession.exitedMarker) 1")
        let screen = tmux.screen()
        XCTAssertTrue(screen.contains("shelf: the terminal TERM=dumb cannot move the cursor"), TmuxSession.framed(screen))
    }

    /// Only the app makes a missing `--data` folder (empty), when its parent exists.
    func testTheAppCreatesAMissingFolderWhoseParentExists() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let new = data.appendingPathComponent("new")
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: new)
        session = tmux
        tmux.waitFor(text: "Created the empty folder")
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: new.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}

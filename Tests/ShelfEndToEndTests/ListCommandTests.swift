import Foundation
import XCTest

/// `shelf list` and `shelf check` print what files hold safely: control characters escaped,
/// long values shortened.
final class ListCommandTests: XCTestCase {
    private var data: URL!

    override func setUpWithError() throws {
        data = try temporaryDataCopy()
    }

    override func tearDown() {
        if let data { removeTemporaryCopy(data) }
        super.tearDown()
    }

    func testControlCharactersInNamesAreEscaped() throws {
        try Data(##"{"name": "x", "color": "#000000"}"##.utf8).write(to: data.appendingPathComponent("colors/evil\u{1B}[2Jname.json"))
        let result = try run(["list", "--data", data.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.output.contains("\u{1B}"), "no raw escape reaches the terminal")
        XCTAssertTrue(result.output.contains(#"  evil\x1b[2Jname"#), result.output)
    }

    func testALongNumberIsNotEchoedWholeByCheck() throws {
        let digits = String(repeating: "7", count: 5_000)
        try Data(#"{"author": "A", "numberOfPages": \#(digits), "title": "T"}"#.utf8).write(to: data.appendingPathComponent("books/long-number.json"))
        let result = try run(["check", "--data", data.path])
        XCTAssertEqual(result.status, 1)
        let line = try XCTUnwrap(result.output.split(separator: "\n").first { $0.contains("books/long-number") })
        XCTAssertLessThan(line.count, 400, "the number is not echoed whole: \(line)")
    }

    /// A subcollection is listed as a collection of its own, by its path, after its parent,
    /// with its ids; one under a document that does not exist too.
    func testSubcollectionsAreListedByPathWithTheirIds() throws {
        for (relative, text) in [("books/hitchhiker/reviews/r1.json", #"{"stars": 5}"#), ("books/hitchhiker/reviews/r2.json", #"{"stars": 4}"#),
                                 ("books/no-such-book/notes/n1.json", #"{"n": 1}"#), ("books/hitchhiker/reviews/r1/replies/x.json", #"{"ok": true}"#)] {
            let file = data.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let result = try run(["list", "--data", data.path])
        XCTAssertEqual(result.status, 0, result.output)
        let headers = result.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("  ") }
        XCTAssertEqual(headers, [
            "articles (7 documents)",
            "books (47 documents)",
            "books/hitchhiker/reviews (2 documents)",
            "books/hitchhiker/reviews/r1/replies (1 document)",
            "books/no-such-book/notes (1 document)",
            "colors (61 documents)",
            "locations (5 documents)",
            "programming-languages (13 documents)",
        ], result.output)
        XCTAssertTrue(result.output.contains("books/hitchhiker/reviews (2 documents)\n  r1\n  r2\n"), result.output)
    }

    /// A collection folder that cannot be opened is said (exit 1) and the others are listed;
    /// a document that is a FIFO is that document's problem, marked `!`.
    ///
    /// Root reads any folder whatever its mode, so as root the binary runs through `setpriv`
    /// without the capabilities that let it (`CAP_DAC_OVERRIDE`, `CAP_DAC_READ_SEARCH`).
    func testListGoesOnPastACollectionItCannotRead() throws {
        XCTAssertEqual(mkfifo(data.appendingPathComponent("books/fifo.json").path, 0o644), 0, "mkfifo")
        let colors = data.appendingPathComponent("colors")
        XCTAssertEqual(chmod(colors.path, 0), 0)
        defer { chmod(colors.path, 0o755) }  // so the copy can be removed
        let launcher = try launcherThatCannotRead(colors)

        let result = try run(["list", "--data", data.path], launcher: launcher)
        XCTAssertEqual(result.status, 1, result.output)
        let lines = result.output.split(separator: "\n").map(String.init)
        let headers = lines.filter { !$0.hasPrefix("  ") }
        XCTAssertEqual(headers, [
            "articles (7 documents)",
            "books (48 documents)",
            "colors: cannot be read: cannot open the folder \(colors.path): Permission denied",
            "locations (5 documents)",
            "programming-languages (13 documents)",
        ], result.output)
        XCTAssertTrue(lines.contains("  fifo  ! document books/fifo cannot be read: it is not a regular file"), result.output)
        XCTAssertTrue(lines.contains("  to-kill-a-mockingbird") && lines.contains("  googleplex") && lines.contains("  typescript"),
                      "the documents of the collections around it are listed:\n\(result.output)")
        XCTAssertFalse(result.output.contains("dZI8vLbiPai2nph7UAxv"), "no colour is listed:\n\(result.output)")
    }

    /// What runs the binary so that `folder` cannot be read: nothing for a user other than
    /// root; for root, `setpriv` dropping the capabilities that read any folder. Fails (never
    /// skips) when neither makes `ls` fail on the folder here.
    private func launcherThatCannotRead(_ folder: URL) throws -> [String] {
        var launcher: [String] = []
        if geteuid() == 0 {
            let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let setpriv else { throw Unreadable("running as root without setpriv: no way to make a folder unreadable") }
            let capabilities = "-dac_override,-dac_read_search"
            launcher = [setpriv, "--inh-caps=\(capabilities)", "--bounding-set=\(capabilities)"]
        }
        let probe = try TmuxSession.runProgram(launcher.first ?? "/bin/ls", Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : ["/bin/ls"]) + [folder.path])
        guard probe.status != 0 else {
            throw Unreadable("\(folder.path) stays readable here (\(launcher.isEmpty ? "plain" : launcher.joined(separator: " ")))")
        }
        return launcher
    }

    /// Control characters in document values (a title holding ESC[2J and a bell) reach
    /// neither `list` nor `check` raw, and a 5,000-digit number is shortened, as each prints them.
    func testListAndCheckEscapeControlCharactersInValuesAndShortenALongNumber() throws {
        let books = data.appendingPathComponent("books")
        // Unreadable (a reference tag holding no path), so both commands print the values.
        try Data(#"{"author": "A", "numberOfPages": 1, "title": {"$ref": "\u001b[2J\u0007"}}"#.utf8)
            .write(to: books.appendingPathComponent("evil-title.json"))
        let digits = String(repeating: "7", count: 5_000)
        try Data(#"{"author": "A", "numberOfPages": 1, "title": {"$ref": \#(digits)}}"#.utf8)
            .write(to: books.appendingPathComponent("long-ref.json"))
        // Readable but not a book: only check prints it.
        try Data(#"{"author": "A", "numberOfPages": "\u001b[2J\u0007", "title": "T"}"#.utf8)
            .write(to: books.appendingPathComponent("evil-pages.json"))
        let escaped = #""\x1b[2J\x07""#

        let list = try run(["list", "--data", data.path])
        XCTAssertEqual(list.status, 0, list.output)
        XCTAssertFalse(list.output.contains("\u{1B}") || list.output.contains("\u{07}"), "no raw ESC or BEL from list")
        let listed = list.output.split(separator: "\n").map(String.init)
        let title = try XCTUnwrap(listed.first { $0.hasPrefix("  evil-title  ! ") }, list.output)
        XCTAssertTrue(title.contains("found the string \(escaped)"), title)
        let long = try XCTUnwrap(listed.first { $0.hasPrefix("  long-ref  ! ") }, list.output)
        XCTAssertTrue(long.contains("found the number 7777777777"), long)
        XCTAssertTrue(long.hasSuffix(" more characters)"), long)
        XCTAssertLessThan(long.count, 400, "the number is not echoed whole: \(long)")

        let check = try run(["check", "--data", data.path])
        XCTAssertEqual(check.status, 1, check.output)
        XCTAssertFalse(check.output.contains("\u{1B}") || check.output.contains("\u{07}"), "no raw ESC or BEL from check")
        let checked = check.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(checked.contains("document books/evil-pages, field numberOfPages: expected Int, found the string \(escaped)"), check.output)
        let checkedTitle = try XCTUnwrap(checked.first { $0.hasPrefix("document books/evil-title ") }, check.output)
        XCTAssertTrue(checkedTitle.contains("found the string \(escaped)"), checkedTitle)
        let checkedLong = try XCTUnwrap(checked.first { $0.hasPrefix("document books/long-ref ") }, check.output)
        XCTAssertTrue(checkedLong.contains("found the number 7777777777") && checkedLong.hasSuffix(" more characters)"), checkedLong)
        XCTAssertLessThan(checkedLong.count, 400, "the number is not echoed whole: \(checkedLong)")
    }
}

/// Why a test could not make a folder unreadable, so it cannot check what it means to.
private struct Unreadable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import XCTest

/// Columns, sorting, the list's position and the filter, driven by keys in the real binary
/// in tmux (100×30, xterm-256color): on the demo data and on a large generated collection.
final class ColumnsEndToEndTests: TmuxTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        session?.kill()
        session = nil
        for folder in folders { removeTemporaryCopy(folder) }
        folders = []
        super.tearDown()
    }

    private func startShelf(data: URL? = nil) throws -> TmuxSession {
        let folder = try data ?? temporaryDataCopy()
        if data == nil { folders.append(folder) }
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: folder)
        session = tmux
        return tmux
    }

    /// The list pane's rows (between the left border and `││`), header first.
    private func list(_ screen: String) -> [String] { TerminalSessionTests.listPane(screen) }

    private func framed(_ tmux: TmuxSession) -> String { TmuxSession.framed(tmux.screen()) }

    func testTheBooksShowAHeaderSortByTitleAndSAndCapitalSChangeTheOrder() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        var rows = list(tmux.screen())
        XCTAssertTrue(rows[0].hasPrefix("  Title ▲") && rows[0].contains("Author") && rows[0].contains("Pages"), framed(tmux))
        XCTAssertTrue(rows[1].hasPrefix("  A Game of Thrones"), "sorted by title:\n\(framed(tmux))")
        XCTAssertTrue(tmux.screen().contains(" 1/47 ┘"), "the frame says where the selection is:\n\(framed(tmux))")
        XCTAssertTrue(tmux.screen().contains("s sort"), "the hint line names s:\n\(framed(tmux))")

        // The broken document is ordered by its title as the others are, marked "!".
        tmux.send(keys: "G")
        tmux.waitFor(text: " 47/47 ┘")
        rows = list(tmux.screen()).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let broken = try XCTUnwrap(rows.firstIndex { $0.hasPrefix("! SwiftUI and Combine") }, framed(tmux))
        XCTAssertTrue(rows[broken - 1].hasPrefix("  Structure and Interp") && rows[broken + 1].hasPrefix("  The C Programming"), framed(tmux))

        tmux.send(keys: "g", "s")
        tmux.waitFor(text: "Author ▲")
        XCTAssertTrue(tmux.screen().contains("Sorted by Author ▲ ascending"), framed(tmux))
        tmux.send(keys: "S")
        tmux.waitFor(text: "Author ▼")
        tmux.send(keys: "s")
        tmux.waitFor(text: "Pages ▲")
        // Pages ascending, by number, ties by id: from the shortest book at the top to the
        // longest at the bottom, with the one whose pages are a text after it.
        let expected = try booksByPages(in: XCTUnwrap(folders.first))
        tmux.send(keys: "g")
        tmux.waitFor(text: " 1/47 ┘")
        rows = dataRows(tmux.screen())
        XCTAssertGreaterThanOrEqual(rows.count, 20, framed(tmux))
        assertRows(rows, show: Array(expected.prefix(rows.count)), tmux)
        tmux.send(keys: "G")
        tmux.waitFor(text: " 47/47 ┘")
        rows = dataRows(tmux.screen())
        XCTAssertTrue(rows.last?.hasPrefix("! SwiftUI and Combine  numberOfPages") == true, "the broken book is last:\n\(framed(tmux))")
        assertRows(Array(rows.dropLast()), show: Array(expected.suffix(rows.count - 1)), tmux)
        tmux.send(keys: "g")
        tmux.waitFor(text: " 1/47 ┘")

        // Each tab has its own columns and order: colours by name, with the hex beside.
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        rows = list(tmux.screen())
        XCTAssertTrue(rows[0].contains("Name ▲") && rows[0].contains("Hex"), framed(tmux))
        XCTAssertTrue(rows[1].contains("Alice Blue"), "colours by name:\n\(framed(tmux))")

        // ? lists the keys.
        tmux.send(keys: "?")
        tmux.waitFor(text: "Sort by the next column")
        XCTAssertTrue(tmux.screen().contains("Reverse the sort direction"), framed(tmux))
        tmux.send(keys: "Escape", "q")
        tmux.waitFor(text: "\(TmuxSession.exitedMarker) 0")
    }

    /// The list's rows below its header, without the empty ones.
    private func dataRows(_ screen: String) -> [String] {
        Array(list(screen).dropFirst()).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The first column of a row, after its two-character marker.
    private func firstCell(_ row: String) -> String {
        String(row.dropFirst(2)).components(separatedBy: "  ").first ?? ""
    }

    /// The books of `folder` that decode, as the Pages column sorts them ascending: by their
    /// number of pages, ties by id.
    private func booksByPages(in folder: URL) throws -> [(title: String, pages: Int)] {
        let books = folder.appendingPathComponent("books")
        let entries = try FileManager.default.contentsOfDirectory(atPath: books.path).filter { $0.hasSuffix(".json") }.compactMap { name -> (id: String, title: String, pages: Int)? in
            guard let object = try? TerminalSessionTests.jsonObject(at: books.appendingPathComponent(name)),
                  let title = object["title"] as? String, let pages = object["numberOfPages"] as? Int else { return nil }
            return (String(name.dropLast(".json".count)), title, pages)
        }
        XCTAssertEqual(entries.count, 46)
        return entries.sorted { ($0.pages, $0.id) < ($1.pages, $1.id) }.map { ($0.title, $0.pages) }
    }

    /// Each row shows its book's title (its start, as the column may cut it) and pages.
    private func assertRows(_ rows: [String], show books: [(title: String, pages: Int)], _ tmux: TmuxSession,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(rows.count, books.count, framed(tmux), file: file, line: line)
        XCTAssertEqual(rows.map { Int($0.split(separator: " ").last ?? "") }, books.map(\.pages), framed(tmux), file: file, line: line)
        for (row, book) in zip(rows, books) {
            XCTAssertTrue(row.hasPrefix("  " + book.title.prefix(12)), "\(row) should show \(book.title):\n\(framed(tmux))", file: file, line: line)
        }
    }

    /// Offices by name, articles by title, languages by name: each tab's columns under a
    /// header that marks the sorted column ▲; the numeric columns sort by number.
    func testOfficesArticlesAndLanguagesShowTheirColumnsAndDefaultSorts() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")

        tmux.send(keys: "4")
        tmux.waitFor(text: "┌ Offices ")
        tmux.waitFor(text: "5 documents")
        var header = list(tmux.screen())[0]
        XCTAssertTrue(header.range(of: #"^  Name ▲ +Latitude +Longitude$"#, options: .regularExpression) != nil, framed(tmux))
        var rows = dataRows(tmux.screen())
        XCTAssertEqual(rows.map(firstCell), ["Google Hamburg", "Google New York", "Google San Francisco", "Google UK", "Googleplex"], framed(tmux))
        XCTAssertTrue(rows[0].hasSuffix(" 53.553986    9.9856482"), "latitude and longitude beside the name:\n\(framed(tmux))")
        tmux.send(keys: "s")
        tmux.waitFor(text: "Latitude ▲")
        XCTAssertEqual(dataRows(tmux.screen()).map(firstCell),
                       ["Googleplex", "Google San Francisco", "Google New York", "Google UK", "Google Hamburg"], framed(tmux))
        tmux.send(keys: "s")
        tmux.waitFor(text: "Longitude ▲")
        XCTAssertEqual(dataRows(tmux.screen()).map(firstCell),
                       ["Google San Francisco", "Googleplex", "Google New York", "Google UK", "Google Hamburg"], framed(tmux))

        tmux.send(keys: "5")
        tmux.waitFor(text: "┌ Articles ")
        tmux.waitFor(text: "7 documents")
        header = list(tmux.screen())[0]
        XCTAssertTrue(header.range(of: #"^  Title ▲ +Status +$"#, options: .regularExpression) != nil, framed(tmux))
        rows = dataRows(tmux.screen())
        XCTAssertEqual(rows.map(firstCell), [
            "Codable and Custom Coding Keys", "Colours in the Terminal", "Dates and Timestamps in Documents", "Enums as Raw Values",
            "GeoPoints on a Map", "Live Updates without a Server", "Mapping Firestore Data in Swift",
        ], framed(tmux))
        XCTAssertEqual(rows.map { ($0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").last ?? "").trimmingCharacters(in: .whitespaces) },
                       ["published", "in review", "approved", "draft", "in review", "draft", "published"], framed(tmux))

        tmux.send(keys: "3")
        tmux.waitFor(text: "┌ Languages ")
        tmux.waitFor(text: "13 documents")
        header = list(tmux.screen())[0]
        XCTAssertTrue(header.range(of: #"^  Name ▲ +Year$"#, options: .regularExpression) != nil, framed(tmux))
        rows = dataRows(tmux.screen())
        XCTAssertEqual(rows.map(firstCell), [
            "BASIC", "C", "Go", "Haskell", "Java", "Kotlin", "Lisp", "Python", "Ruby", "Rust", "Swift", "TypeScript", "Ada",
        ], framed(tmux))
        XCTAssertTrue(rows[0].hasSuffix(" 1964"), framed(tmux))
        XCTAssertTrue(rows.last?.hasPrefix("! Ada  language_name: expected String") == true, "the broken language, without a language_name, is last:\n\(framed(tmux))")
        tmux.send(keys: "s")
        tmux.waitFor(text: "Year ▲")
        rows = dataRows(tmux.screen())
        // Ada's year is as good as any: it sorts by it (1843), though its name does not decode.
        XCTAssertEqual(rows.map(firstCell), [
            "Ada", "Lisp", "BASIC", "C", "Haskell", "Python", "Ruby", "Java", "Go", "TypeScript", "Swift", "Rust", "Kotlin",
        ], framed(tmux))
    }

    func testTheFilterIgnoresCaseAndAccentsSearchesGenresAndHexAndHighlights() throws {
        let tmux = try startShelf()
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "/")
        tmux.type("bronte")
        tmux.waitFor(text: " 1/1 ┘")
        XCTAssertTrue(list(tmux.screen()).contains { $0.contains("Jane Eyre") }, framed(tmux))
        // The match is drawn underlined as written ("Brontë", cut to "Bro…" in the author
        // column) in the data row, the one below the header.
        let attributed = tmux.screenWithAttributes().components(separatedBy: "\n")
        let row = attributed.first { $0.components(separatedBy: "││").first?.contains("Jane Eyre") == true } ?? ""
        XCTAssertTrue(row.contains("4mBro"), "the match is highlighted: \(String(reflecting: row))")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "1 of 47 documents")

        // Genres are searched: Gothic finds Frankenstein and Jane Eyre.
        tmux.send(keys: "/", "C-u")
        tmux.type("GOTHIC")
        tmux.waitForScreen("the list holds the gothic books only") { screen in
            let rows = TerminalSessionTests.listPane(screen)
            return rows.contains { $0.contains("Frankenstein") } && rows.contains { $0.contains("Jane Eyre") } && !rows.contains { $0.contains("Dune") }
        }
        // Esc clears the filter and keeps the selected book, now at its place among all 47.
        tmux.send(keys: "Escape")
        tmux.waitFor(text: " 13/47 ┘")
        XCTAssertTrue(tmux.screen().contains("books/jane-eyre"), framed(tmux))
        XCTAssertFalse(tmux.screen().contains(" of 47 documents"), framed(tmux))

        // The colours' hex is searched.
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        tmux.send(keys: "/")
        tmux.type("#2E8B57")
        tmux.waitFor(text: "1 of 61 documents")
        XCTAssertTrue(list(tmux.screen()).contains { $0.contains("Sea Green") }, framed(tmux))
        tmux.send(keys: "Enter", "q")
        tmux.waitFor(text: "\(TmuxSession.exitedMarker) 0")
    }

    func testALargeCollectionShowsAGroupedPositionSortsAndFilters() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-columns-\(UUID().uuidString)")
        let data = root.appendingPathComponent("Data")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        folders.append(data)
        let generated = try run(["generate", "--data", data.path, "--count", "30047"], timeout: 300)
        XCTAssertEqual(generated.status, 0, generated.output)
        let tmux = try startShelf(data: data)
        tmux.waitFor(text: "30,047 documents", timeout: 120)
        tmux.waitFor(text: " 1/30,047 ┘", timeout: 60)
        tmux.send(keys: "End")
        tmux.waitFor(text: " 30,047/30,047 ┘", timeout: 60)
        tmux.send(keys: "S")
        tmux.waitFor(text: "Title ▼", timeout: 60)
        // The selection stays on its book: still the one shown, now at the top of the order.
        tmux.waitFor(text: " 1/30,047 ┘", timeout: 60)
        tmux.send(keys: "/")
        tmux.type("comet 99")
        tmux.waitForScreen("the filter narrows the list", timeout: 60) { $0.contains(" of 30,047 documents") && $0.contains("Comet 99") }
        tmux.send(keys: "Escape", "q")
        tmux.waitFor(text: "\(TmuxSession.exitedMarker) 0", timeout: 30)
    }
}

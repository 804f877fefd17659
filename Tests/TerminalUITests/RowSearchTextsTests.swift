import ShelfModels
@testable import TerminalUI
import XCTest

/// Search texts are kept as bytes in shared blocks, found by their rows' places: each reads
/// back as made, follows its row, and the blocks hold little more than the texts kept.
@MainActor
final class RowSearchTextsTests: XCTestCase {
    func testEveryTextReadsBackAsAppendedAcrossBlocks() async {
        let blocks = TextBlocks()
        var generator = SystemRandomNumberGenerator()
        // Short texts over many blocks, an empty one, and one larger than a block (its own).
        var texts = (0..<5_000).map { _ in (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        texts.insert([UInt8](repeating: 0x61, count: TextBlocks.blockSize + 5), at: 3_000)
        let places = texts.map { text in text.withUnsafeBufferPointer { blocks.append($0) } }
        blocks.withBlocks { addresses in
            for (text, place) in zip(texts, places) {
                XCTAssertEqual(Array(TextBlocks.bytes(at: place, in: addresses)), text)
            }
        }
        XCTAssertEqual(blocks.byteCount, texts.reduce(0) { $0 + $1.count }, "only the texts' bytes, no header each")
        XCTAssertEqual(places[texts.firstIndex { $0.isEmpty }!], .none)
    }

    /// Texts made on several cores go each into blocks of their own, which one set of blocks
    /// then takes: every text reads back where its moved place says, and what is appended
    /// after goes to a block of its own.
    func testBlocksTakenAfterOthersReadBackEveryTextAtItsMovedPlace() async {
        let kept = TextBlocks()
        var expected: [(text: [UInt8], place: TextBlocks.Place)] = []
        for run in 0..<5 {
            let blocks = TextBlocks(firstBlockSize: 100 * run)  // small: a run takes several blocks
            let texts = (0..<200).map { Array("run \(run) text \($0)".utf8) }
            let places = texts.map { text in text.withUnsafeBufferPointer { blocks.append($0) } }
            blocks.trim()
            let before = kept.take(blocks)
            XCTAssertEqual(blocks.byteCount, 0, "the taker has the blocks now")
            expected += zip(texts, places.map { $0.moved(after: before) }).map { ($0, $1) }
        }
        XCTAssertEqual(kept.byteCount, expected.reduce(0) { $0 + $1.text.count })
        kept.withBlocks { blocks in
            for (text, place) in expected { XCTAssertEqual(Array(TextBlocks.bytes(at: place, in: blocks)), text) }
        }
        let after = Array("appended after".utf8), place = after.withUnsafeBufferPointer { kept.append($0) }
        kept.withBlocks { XCTAssertEqual(Array(TextBlocks.bytes(at: place, in: $0)), after) }
        kept.withBlocks { XCTAssertEqual(Array(TextBlocks.bytes(at: expected.last!.place, in: $0)), expected.last!.text, "untouched by it") }
    }

    func testATextPastTheLongestIsCutThere() async {
        let blocks = TextBlocks()
        let text = [UInt8](repeating: 0x62, count: TextBlocks.longestText + 10)
        let place = text.withUnsafeBufferPointer { blocks.append($0) }
        XCTAssertEqual(place.count, TextBlocks.longestText)
        blocks.withBlocks { XCTAssertEqual(TextBlocks.bytes(at: place, in: $0).last, 0x62) }
    }

    func testTextsFollowTheirRowsAndMatchAsTheirRowsAre() async {
        var generator = SystemRandomNumberGenerator()
        let rows = ChangingRows()
        let texts = RowSearchTexts()
        let needle = TextFolding.fold("7")
        for _ in 0..<300 {
            rows.change(&generator)
            texts.prepare(rows, budget: Int.random(in: 0...rows.rowCount + 1, using: &generator), fold: text(of: rows))
            let candidates = Array(rows.names.indices.reversed())
            let matched = texts.matching(needle, among: candidates, of: rows, fold: text(of: rows))
            XCTAssertEqual(matched, candidates.filter { String(rows.names[$0]).contains("7") })
            XCTAssertEqual(texts.missingCount(rows), 0)
        }
    }

    /// Changed rows leave their old texts' bytes behind; once most bytes are such, the texts
    /// kept are copied to new blocks, and still match.
    func testOldTextsAreLetGoOnceMostBytesAreThem() async {
        let rows = ChangingRows()
        rows.names = Array(0..<1_000)
        let texts = RowSearchTexts()
        XCTAssertEqual(texts.prepare(rows, budget: .max, fold: long(rows)), 1_000)
        let kept = texts.bytesHeld
        XCTAssertGreaterThan(kept, 1_000 * 1_000)
        for round in 1...30 {
            // Every row but the first changed: its text made again.
            rows.version += 1
            rows.maps[rows.version] = RowMap(positions: [0] + Array(repeating: -1, count: 999), count: 1_000)
            rows.names = [0] + rows.names.dropFirst().map { $0 + 1_000 }
            texts.prepare(rows, budget: .max, fold: long(rows))
            XCTAssertLessThanOrEqual(texts.bytesHeld, 3 * kept + TextBlocks.blockSize, "round \(round)")
        }
        let matched = texts.matching(TextFolding.fold("row 30999 "), among: Array(0..<1_000), of: rows, fold: long(rows))
        XCTAssertEqual(matched, [999])
        XCTAssertEqual(texts.matching(TextFolding.fold("row 0 "), among: Array(0..<1_000), of: rows, fold: long(rows)), [0],
                       "the row kept all along, its text copied")
    }

    func testAListMadeAnewStartsWithNewBlocks() async {
        let rows = ChangingRows()
        rows.names = Array(0..<1_000)
        let texts = RowSearchTexts()
        texts.prepare(rows, budget: .max, fold: long(rows))
        let kept = texts.bytesHeld
        rows.version += 1  // no map from the last version: every text made again
        texts.prepare(rows, budget: .max, fold: long(rows))
        XCTAssertEqual(texts.bytesHeld, kept)
    }

    /// Past 50,000 candidates the texts are matched on every core, a chunk each at a time.
    func testManyRowsAreMatchedInChunksWithTheSameRowsInTheSameOrder() async {
        let rows = ChangingRows()
        rows.names = Array(0..<120_000)
        let texts = RowSearchTexts()
        let fold: RowSearchTexts.Fold = { $1 += TextFolding.fold($0 % 7 == 0 ? "River \($0)" : "Garden \($0)") }
        let candidates = Array((0..<120_000).reversed().filter { $0 % 3 != 0 })  // any order, some rows left out
        let needle = TextFolding.fold("river")
        XCTAssertEqual(texts.matching(needle, among: candidates, of: rows, fold: fold), candidates.filter { $0 % 7 == 0 },
                       "every match, once, in the candidates' order")
        XCTAssertEqual(texts.matching(TextFolding.fold("nowhere"), among: candidates, of: rows, fold: fold), [])
        XCTAssertEqual(texts.matching(needle, among: [7, 3, 14], of: rows, fold: fold), [7, 14], "few candidates, matched as they are")
    }

    private func text(of rows: ChangingRows) -> RowSearchTexts.Fold {
        let names = rows.names
        return { $1 += TextFolding.fold("row \(names[$0]) ") }
    }

    /// A text of a kilobyte a row, its name first.
    private func long(_ rows: ChangingRows) -> RowSearchTexts.Fold {
        let names = rows.names
        return { $1 += TextFolding.fold("row \(names[$0]) " + String(repeating: "x", count: 1_000)) }
    }
}

/// Each row's search text, made from its stored document when the list is first filtered,
/// kept in `TextBlocks` (a row's slot is where its bytes are) and carried along with the rows
/// by a `RowCache`. A changed row's text is made again and its old bytes left where they
/// are; once more than half the bytes are such, the texts kept are copied to new blocks.
///
/// Texts are made a run of rows at a time on every core, each run folding its rows' texts one
/// after the other into blocks of its own, which are then kept as they are: no array a text,
/// made on one core and copied and freed on the main thread (0.3 s of the main thread's time
/// for a million, the other core idle meanwhile).
@MainActor
final class RowSearchTexts {
    /// Appends the folded search text of the row at an index to a buffer.
    typealias Fold = @Sendable (Int, inout [UInt8]) -> Void

    private let places = RowCache<TextBlocks.Place>(placeholder: .none)
    private var blocks = TextBlocks()
    /// The bytes the blocks hold, of texts kept or not: for tests.
    var bytesHeld: Int { blocks.byteCount }
    /// The blocks' bytes when last counted: counted again once they are twice as many.
    private var bytesCounted = 0

    func missingCount(_ rows: any VersionedRows) -> Int { places.missingCount(rows) }

    /// Makes up to `budget` missing texts; returns how many rows have theirs.
    @discardableResult
    func prepare(_ rows: any VersionedRows, budget: Int, fold: Fold) -> Int {
        forgetBytesIfNoneKept(rows)
        let made = places.prepare(rows, budget: budget, makeRun: { Self.run($0, fold: fold) }, keep: keep)
        compactIfHalfUnused()
        return made
    }

    /// The candidates (indices of rows) whose text holds `needle`, in their order, every
    /// text made first; past 50,000 matched on every core, in chunks (a million matched on
    /// one core took 365 ms, one frame the keys waited for).
    func matching(_ needle: [UInt8], among candidates: [Int], of rows: any VersionedRows, fold: Fold) -> [Int] {
        forgetBytesIfNoneKept(rows)
        let places = places.values(of: rows, makeRun: { Self.run($0, fold: fold) }, keep: keep)
        compactIfHalfUnused()
        return blocks.withBlocks { blocks in
            places.withUnsafeBufferPointer { places in
                needle.withUnsafeBufferPointer { Self.candidates(candidates, whoseTextIn: blocks, at: places, holds: $0) }
            }
        }
    }

    /// Not isolated to the main actor, as nothing in it is: a closure that is checks where it
    /// runs at each call (a tenth of a second for a million candidates). Each run's matches
    /// are gathered on its core, then put end to end once.
    nonisolated private static func candidates(_ candidates: [Int], whoseTextIn blocks: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>,
                                               at places: UnsafeBufferPointer<TextBlocks.Place>, holds needle: UnsafeBufferPointer<UInt8>) -> [Int] {
        let texts = SharedTexts(blocks: blocks, places: places, needle: needle)
        let runs = EveryCore.runs(count: candidates.count, past: 50_000) { run in
            candidates[run].filter { SearchText.bytes(TextBlocks.bytes(at: texts.places[$0], in: texts.blocks), contain: texts.needle) }
        }
        guard runs.count > 1 else { return runs.first ?? [] }
        var matched: [Int] = []
        matched.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        for run in runs { matched += run }
        return matched
    }

    /// The texts and the needle, read by every core while the caller holds them unchanged.
    private struct SharedTexts: @unchecked Sendable {
        let blocks: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
        let places: UnsafeBufferPointer<TextBlocks.Place>
        let needle: UnsafeBufferPointer<UInt8>
    }

    /// The texts of a run of rows, in blocks of their own, and where each is in them.
    private struct Run {
        let blocks: TextBlocks
        let places: [TextBlocks.Place]
    }

    /// Folds the rows' texts one after the other, on the core the run is given to.
    nonisolated private static func run(_ indices: ArraySlice<Int>, fold: Fold) -> Run {
        let blocks = TextBlocks(firstBlockSize: indices.count * 96)  // a book's text is some 70 bytes
        var text: [UInt8] = []
        text.reserveCapacity(256)
        let places = indices.map { index in
            text.removeAll(keepingCapacity: true)
            fold(index, &text)
            return text.withUnsafeBufferPointer { blocks.append($0) }
        }
        blocks.trim()
        return Run(blocks: blocks, places: places)
    }

    private func keep(_ run: Run) -> [TextBlocks.Place] {
        Self.places(run.places, after: blocks.take(run.blocks))
    }

    /// Not isolated, as `candidates(_:whoseTextIn:at:holds:)` is not.
    nonisolated private static func places(_ places: [TextBlocks.Place], after blocks: Int) -> [TextBlocks.Place] {
        places.map { $0.moved(after: blocks) }
    }

    /// New blocks when no row has its text (the rows made anew, as a list of other columns):
    /// every byte kept is then unused.
    private func forgetBytesIfNoneKept(_ rows: any VersionedRows) {
        guard blocks.byteCount > 0, places.missingCount(rows) == rows.rowCount else { return }
        blocks = TextBlocks()
        bytesCounted = 0
    }

    /// The rows' texts copied to new blocks, in the rows' order, when most bytes kept are
    /// those of texts no row has any more (changed or removed rows, a list made anew).
    private func compactIfHalfUnused() {
        guard blocks.byteCount > 2 * bytesCounted + TextBlocks.blockSize else { return }
        var used = 0
        places.updateMadeValues { used += $0.count }
        bytesCounted = used
        guard used * 2 < blocks.byteCount else { return }
        let old = blocks, new = TextBlocks()
        old.withBlocks { oldBlocks in
            places.updateMadeValues { $0 = new.append(TextBlocks.bytes(at: $0, in: oldBlocks)) }
        }
        blocks = new
    }
}

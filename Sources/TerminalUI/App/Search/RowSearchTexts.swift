/// Each row's search text, made from its stored document when the list is first filtered,
/// kept in `TextBlocks` (a row's slot is where its bytes are) and carried along with the rows
/// by a `RowCache`. A changed row's text is made again and its old bytes left where they
/// are; once more than half the bytes are such, the texts kept are copied to new blocks.
@MainActor
final class RowSearchTexts {
    private let places = RowCache<TextBlocks.Place>(placeholder: .none)
    private var blocks = TextBlocks()
    /// The bytes the blocks hold, of texts kept or not: for tests.
    var bytesHeld: Int { blocks.byteCount }
    /// The blocks' bytes when last counted: counted again once they are twice as many.
    private var bytesCounted = 0

    func missingCount(_ rows: any VersionedRows) -> Int { places.missingCount(rows) }

    /// Makes up to `budget` missing texts; returns how many rows have theirs.
    @discardableResult
    func prepare(_ rows: any VersionedRows, budget: Int, make: (Int) -> SearchText) -> Int {
        forgetBytesIfNoneKept(rows)
        let made = places.prepare(rows, budget: budget, make: make, keep: keep)
        compactIfHalfUnused()
        return made
    }

    /// The candidates (indices of rows) whose text holds `needle`, in their order, every
    /// text made first; past 50,000 matched on every core, in chunks (a million matched on
    /// one core took 365 ms, one frame the keys waited for).
    func matching(_ needle: [UInt8], among candidates: [Int], of rows: any VersionedRows, make: (Int) -> SearchText) -> [Int] {
        forgetBytesIfNoneKept(rows)
        let places = places.values(of: rows, make: make, keep: keep)
        compactIfHalfUnused()
        let holds = blocks.withBlocks { blocks in
            places.withUnsafeBufferPointer { places in
                needle.withUnsafeBufferPointer { needle in
                    EveryCore.map(count: candidates.count, past: 50_000) {
                        SearchText.bytes(TextBlocks.bytes(at: places[candidates[$0]], in: blocks), contain: needle)
                    }
                }
            }
        }
        return candidates.indices.compactMap { holds[$0] ? candidates[$0] : nil }
    }

    private func keep(_ text: SearchText) -> TextBlocks.Place {
        text.bytes.withUnsafeBufferPointer { blocks.append($0) }
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

import Foundation

/// Many short texts' bytes one after the other in a few large blocks, each text found by a
/// `Place` of 8 bytes: a million books' search texts as arrays of their own took 112 bytes
/// a row beside their 8-byte slot (a 32-byte header and the malloc block's rounding), here
/// their bytes and the place. Blocks are never moved or grown, so no copy doubles the memory
/// on the way; one block's bytes stay where they are until the whole is let go.
///
/// Appending is for one thread; reading bytes through `withBlocks` is safe from many at once
/// while nothing appends. Texts made on several cores go each into blocks of their own, which
/// one set of blocks then takes as they are (`take`): no text is copied twice.
final class TextBlocks {
    /// Where a text's bytes are: the block, the offset in it and the count, in one word.
    struct Place: Equatable, Sendable {
        fileprivate let bits: UInt64

        fileprivate init(block: Int, offset: Int, count: Int) {
            bits = UInt64(block) << 44 | UInt64(offset) << 22 | UInt64(count)
        }

        /// No text: what a row's slot holds before its text is made.
        static let none = Place(block: 0, offset: 0, count: 0)

        var count: Int { Int(bits & Self.mask) }
        /// The same text once its blocks are taken by blocks that had `blocks` before them.
        func moved(after blocks: Int) -> Place { count == 0 ? self : Place(block: block + blocks, offset: offset, count: count) }
        fileprivate var offset: Int { Int(bits >> 22 & Self.mask) }
        fileprivate var block: Int { Int(bits >> 44) }
        private static let mask: UInt64 = (1 << 22) - 1
    }

    /// A longer text is cut to this many bytes (a document is at most 1 MiB; only a column
    /// drawing a huge document folded into more bytes than that would be cut).
    static let longestText = (1 << 22) - 1
    /// A block is this large, or as large as the one text it holds when that is larger; the
    /// first blocks are smaller, so a collection of ten rows does not take a megabyte.
    static let blockSize = 1 << 20
    static let firstBlockSize = 1 << 14

    /// From `malloc`, so that the last can be cut to its bytes (`trim`).
    private var blocks: [UnsafeMutablePointer<UInt8>] = []
    private var capacity = 0
    private var used = 0
    /// Bytes of every text appended, kept or not (see `RowSearchTexts`, which compacts).
    private(set) var byteCount = 0
    private let firstBlockSize: Int

    /// `firstBlockSize`: about the bytes the texts to come will take, when known (a run of
    /// rows' texts), so they take one block.
    init(firstBlockSize: Int = TextBlocks.firstBlockSize) {
        self.firstBlockSize = min(max(firstBlockSize, 64), Self.blockSize)
    }

    deinit {
        for block in blocks { free(block) }
    }

    /// Keeps a copy of `bytes` (cut to `longestText`) and says where it is.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Place {
        let count = min(bytes.count, Self.longestText)
        guard count > 0 else { return .none }
        if capacity - used < count {
            let size = max(count, min(Self.blockSize, firstBlockSize << min(blocks.count, 6)))
            guard let block = malloc(size) else { fatalError("TextBlocks: no memory for a block of \(size) bytes") }
            blocks.append(block.assumingMemoryBound(to: UInt8.self))
            capacity = size
            used = 0
        }
        let place = Place(block: blocks.count - 1, offset: used, count: count)
        (blocks[blocks.count - 1] + used).update(from: bytes.baseAddress!, count: count)
        used += count
        byteCount += count
        return place
    }

    /// Gives back the last block's bytes past its texts: a run's blocks are done once made.
    func trim() {
        guard let last = blocks.last, used < capacity, used > 0, let trimmed = realloc(last, used) else { return }
        blocks[blocks.count - 1] = trimmed.assumingMemoryBound(to: UInt8.self)
        capacity = used
    }

    /// Takes `other`'s blocks, which it then no longer has, after these; returns how many
    /// blocks there were before them, which `Place.moved(after:)` adds to its texts' places.
    /// Texts appended next go to a new block.
    func take(_ other: TextBlocks) -> Int {
        let before = blocks.count
        guard !other.blocks.isEmpty else { return before }
        blocks += other.blocks
        capacity = other.capacity
        used = other.used
        byteCount += other.byteCount
        other.blocks = []
        other.capacity = 0
        other.used = 0
        other.byteCount = 0
        return before
    }

    /// Calls `body` with the blocks' addresses: read texts through `bytes(at:in:)` without
    /// touching the blocks' array (and its reference count) once per text, on every core.
    func withBlocks<R>(_ body: (UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>) throws -> R) rethrows -> R {
        try blocks.withUnsafeBufferPointer(body)
    }

    /// The bytes of the text at `place`, valid while the blocks are.
    static func bytes(at place: Place, in blocks: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>) -> UnsafeBufferPointer<UInt8> {
        guard place.count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: blocks[place.block] + place.offset, count: place.count)
    }
}

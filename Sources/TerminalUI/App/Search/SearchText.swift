import Foundation

/// A row's searchable text, folded (see `TextFolding`) into bytes, with a plain byte search:
/// it keeps filtering 100,000 rows within a frame.
struct SearchText: Sendable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = TextFolding.fold(text) }

    /// The lines folded one after the other, a newline between two, so no match spans two.
    init(lines: [String]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(lines.count) { $0 + $1.utf8.count })
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(0x0A) }
            TextFolding.fold(line, into: &bytes)
        }
        self.bytes = bytes
    }

    func contains(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                var start = 0
                let last = haystack.count - needle.count
                while start <= last {
                    if haystack[start] == first {
                        var matched = 1
                        while matched < needle.count && haystack[start + matched] == needle[matched] { matched += 1 }
                        if matched == needle.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}

extension SearchText {
    /// The candidates (indices of `texts`) whose text holds `needle`, in their order; past
    /// 50,000 matched on every core, in chunks (a million matched on one core took 365 ms, one
    /// frame the keys waited for).
    static func matching(_ needle: [UInt8], among candidates: [Int], in texts: [SearchText]) -> [Int] {
        guard candidates.count > 50_000 else { return candidates.filter { texts[$0].contains(needle) } }
        let chunks = ProcessInfo.processInfo.activeProcessorCount * 4
        let chunkSize = (candidates.count + chunks - 1) / chunks
        var found = [[Int]](repeating: [], count: chunks)
        found.withUnsafeMutableBufferPointer { found in
            let slots = Slots(base: found.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let range = min(chunk * chunkSize, candidates.count)..<min((chunk + 1) * chunkSize, candidates.count)
                slots.base[chunk] = candidates[range].filter { texts[$0].contains(needle) }
            }
        }
        return Array(found.joined())
    }

    /// Each chunk's answer, written at its own index only.
    private struct Slots: @unchecked Sendable {
        let base: UnsafeMutablePointer<[Int]>
    }
}

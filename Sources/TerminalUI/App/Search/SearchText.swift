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
        let holds = EveryCore.map(count: candidates.count, past: 50_000) { texts[candidates[$0]].contains(needle) }
        return candidates.indices.compactMap { holds[$0] ? candidates[$0] : nil }
    }
}

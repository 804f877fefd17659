/// How a folder's watcher reads many files at once (`CollectionFolderChanges`): in slices,
/// each read and parsed on every core, merged into id order as they come.
enum ParallelReading {
    /// Reading more files than this at once is done on every core, a slice at a time (the
    /// first slice smaller, so a large collection's first documents are reported soon).
    static let threshold = 256
    static let firstSlice = 1024
    static let slice = 8192
    /// Slices after the first: `slice` files, or a sixteenth of a larger read. A
    /// listener merges each slice into everything read before it, so at a million files slices
    /// of 8,192 made its list order a million rows 120 times over (a fifth of the load's CPU).
    static func sliceSize(reading count: Int) -> Int { max(slice, count / 16) }

    /// Two lists of documents in id order, as one: the few of `a` (the first files read)
    /// placed among the many of `b` by binary search, since comparing ids costs.
    static func merged(_ a: [QueryDocumentSnapshot], _ b: [QueryDocumentSnapshot]) -> [QueryDocumentSnapshot] {
        guard !a.isEmpty else { return b }
        var result: [QueryDocumentSnapshot] = []
        result.reserveCapacity(a.count + b.count)
        var from = 0
        for document in a {
            var low = from, high = b.count
            while low < high {
                let middle = (low + high) / 2
                if b[middle].key < document.key { low = middle + 1 } else { high = middle }
            }
            result += b[from..<low]
            result.append(document)
            from = low
        }
        result += b[from...]
        return result
    }
}

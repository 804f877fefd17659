import ShelfModels
@testable import TerminalUI

/// Rows named by numbers, changed by maps: rows kept move, new rows get new names.
@MainActor
final class ChangingRows: VersionedRows {
    var names: [Int] = []
    var version = 0
    var maps: [Int: RowMap] = [:]  // by the version they lead to
    /// How many rows were ever made: each value is made at most once a row.
    private(set) var next = 0
    var rowCount: Int { names.count }

    func rowMap(since version: Int) -> RowMap? {
        guard version >= 0, version <= self.version else { return nil }
        var composed = RowMap.identity(version == self.version ? names.count : (maps[version + 1]?.earlierCount ?? 0))
        for step in stride(from: version + 1, through: self.version, by: 1) {
            guard let map = maps[step] else { return nil }
            composed = composed.then(map)
        }
        return composed
    }

    func change(_ generator: inout SystemRandomNumberGenerator) {
        let kept = Int.random(in: 0...names.count, using: &generator)
        // Perhaps a tail after the change, which moves as one.
        let tailStart = Bool.random(using: &generator) ? names.count : Int.random(in: kept...names.count, using: &generator)
        var newNames = Array(names[0..<kept])
        var rest: [Int32] = []
        for name in names[kept..<tailStart] {
            while Int.random(in: 0..<3, using: &generator) == 0 { newNames.append(fresh()) }
            if Bool.random(using: &generator) {
                rest.append(Int32(newNames.count))
                newNames.append(name)
            } else {
                rest.append(-1)
            }
        }
        version += 1
        if tailStart < names.count {
            while Bool.random(using: &generator) { newNames.append(fresh()) }
            let shift = newNames.count - tailStart
            newNames += names[tailStart...]
            maps[version] = RowMap(kept: kept, rest: rest, tail: names.count - tailStart, shift: shift, count: newNames.count)
        } else {
            while Bool.random(using: &generator) { newNames.append(fresh()) }
            maps[version] = RowMap(kept: kept, rest: rest, count: newNames.count)
        }
        names = newNames
    }

    private func fresh() -> Int {
        next += 1
        return next
    }
}

/// The row indices a list shows, in its order: either every row in the rows' own order (a
/// window of a query, whose positions are its order already, at any size without an index
/// held per row), or chosen indices (a sorted or filtered collection held whole).
struct ListedRows: RandomAccessCollection, Equatable {
    private enum Storage: Equatable {
        case all(Int)
        case chosen([Int])
    }
    private let storage: Storage

    /// Rows `0..<count`, in that order.
    static func all(_ count: Int) -> ListedRows { ListedRows(storage: .all(Swift.max(0, count))) }
    init(_ indices: [Int]) { storage = .chosen(indices) }
    private init(storage: Storage) { self.storage = storage }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .all(let count): count
        case .chosen(let indices): indices.count
        }
    }
    subscript(position: Int) -> Int {
        switch storage {
        case .all: position
        case .chosen(let indices): indices[position]
        }
    }

    /// The place of row `index` in the list, when listed; `table` gives the table of a chosen
    /// list's places (once: `VisibleRows` keeps it).
    func position(of index: Int, in table: () -> [Int32]) -> Int? {
        switch storage {
        case .all(let count): return (0..<count).contains(index) ? index : nil
        case .chosen:
            let table = table()
            guard table.indices.contains(index), table[index] >= 0 else { return nil }
            return Int(table[index])
        }
    }
}

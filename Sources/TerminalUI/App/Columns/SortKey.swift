/// What a cell sorts by: numbers by value (before any text), text by its folded bytes, so
/// "Émile" sorts with "emile" and not after "z".
enum SortKey: Comparable, Sendable {
    case number(Double)
    case text([UInt8])

    init(text: String) { self = .text(TextFolding.fold(text)) }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a), .number(b)): return a < b
        case (.number, .text): return true
        case (.text, .number): return false
        case let (.text(a), .text(b)): return a.lexicographicallyPrecedes(b)
        }
    }
}

/// One column of a table as laid out: its header, how wide it may be and how it aligns.
/// A column with `weight` 0 keeps `minWidth`; the others share what is left by weight.
public struct ColumnSpec: Hashable, Sendable {
    public enum Alignment: Hashable, Sendable { case left, right }

    public var title: String
    public var minWidth: Int
    public var weight: Int
    public var alignment: Alignment

    public init(_ title: String, minWidth: Int, weight: Int = 0, alignment: Alignment = .left) {
        self.title = title
        self.minWidth = minWidth
        self.weight = weight
        self.alignment = alignment
    }
}

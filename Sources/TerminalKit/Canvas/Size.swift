/// A size in terminal cells: `width` columns by `height` rows.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// True when this size is at least `other` in both directions.
    public func contains(_ other: Size) -> Bool {
        width >= other.width && height >= other.height
    }

    /// "80×24", the way the too-small message prints sizes.
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells. Widgets draw into a `Rect` of a `Canvas`; the layout helpers split
/// one rectangle into others and never produce negative sizes.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(origin: Point = .zero, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var origin: Point { Point(x: x, y: y) }
    public var size: Size { Size(width: width, height: height) }
    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The part of this rectangle inside `other` (empty when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Shrunk by `dx` columns on the left and right and `dy` rows at the top and bottom.
    public func insetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The single row `index` (0 is the top row) of this rectangle.
    public func row(_ index: Int) -> Rect {
        Rect(x: x, y: y + index, width: width, height: index >= 0 && index < height ? 1 : 0)
    }

    /// A rectangle of at most `size` centred in this one.
    public func centered(_ size: Size) -> Rect {
        let w = min(size.width, width), h = min(size.height, height)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }

    /// Split into a left part `leftWidth` columns wide (clamped) and the rest.
    public func splitColumns(leftWidth: Int) -> (left: Rect, right: Rect) {
        let w = min(max(0, leftWidth), width)
        return (Rect(x: x, y: y, width: w, height: height),
                Rect(x: x + w, y: y, width: width - w, height: height))
    }

    /// Split into a top part `topHeight` rows high (clamped) and the rest.
    public func splitRows(topHeight: Int) -> (top: Rect, bottom: Rect) {
        let h = min(max(0, topHeight), height)
        return (Rect(x: x, y: y, width: width, height: h),
                Rect(x: x, y: y + h, width: width, height: height - h))
    }

    /// Split into the rest and a bottom part `bottomHeight` rows high (clamped).
    public func splitRows(bottomHeight: Int) -> (top: Rect, bottom: Rect) {
        splitRows(topHeight: height - min(max(0, bottomHeight), height))
    }

    public var description: String { "Rect(x: \(x), y: \(y), width: \(width), height: \(height))" }
}

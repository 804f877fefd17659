/// A mouse button or wheel event at a cell, as the backend decodes it. Moves and releases are
/// not reported: a press selects, the wheel scrolls.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press
        case wheelUp, wheelDown
    }

    public var kind: Kind
    public var point: Point

    public init(_ kind: Kind, at point: Point) {
        self.kind = kind
        self.point = point
    }

    /// How the help writes it: "Click" or "Wheel".
    var label: String { kind == .press ? "Click" : "Wheel" }
}

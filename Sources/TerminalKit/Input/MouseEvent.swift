/// A mouse button or wheel event at a cell, as the backend decodes it: a press selects, the
/// wheel scrolls; any other report (a release, a move, another button) is `.other`, read
/// whole so it never runs as keys, and ignored.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press
        case wheelUp, wheelDown
        case other
    }

    public var kind: Kind
    public var point: Point

    public init(_ kind: Kind, at point: Point) {
        self.kind = kind
        self.point = point
    }

    /// How the help writes it: "Click" or "Wheel".
    var label: String {
        switch kind {
        case .press: return "Click"
        case .wheelUp, .wheelDown: return "Wheel"
        case .other: return "Mouse"
        }
    }
}

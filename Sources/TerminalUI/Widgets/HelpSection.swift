/// A titled group of key bindings in the help overlay, e.g. the screen's and the global ones.
public struct HelpSection: Hashable, Sendable {
    public var title: String
    public var bindings: [KeyBinding]

    public init(title: String, bindings: [KeyBinding]) {
        self.title = title
        self.bindings = bindings
    }
}

/// A titled group of key bindings in the help overlay, e.g. the screen's and the global ones.
public struct HelpSection<Action: Hashable & Sendable>: Hashable, Sendable {
    public var title: String
    public var bindings: [KeyBinding<Action>]

    public init(title: String, bindings: [KeyBinding<Action>]) {
        self.title = title
        self.bindings = bindings
    }
}

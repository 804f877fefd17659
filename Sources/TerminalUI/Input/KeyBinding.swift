/// One row of a screen's key table: the keys, the action they trigger, and what the action
/// does. The same table drives key handling, the hint line and the help overlay, so the
/// three can never disagree (lazygit's idea).
///
/// `action` is a name; a screen typically declares `enum Action: String` and looks it up
/// with `Action(rawValue: binding.action)`.
public struct KeyBinding: Hashable, Sendable {
    public var keys: [Key]
    public var action: String
    /// Shown in the help overlay, e.g. "Delete the selected colour".
    public var description: String
    /// Shown in the hint line, e.g. "delete"; nil keeps the binding out of the hint line
    /// (it is still listed in the help overlay).
    public var hint: String?
    /// A hint the line shows only where there is room for it beside every other hint (the
    /// last minor ones give way first).
    public var isMinorHint: Bool

    public init(keys: [Key], action: String, description: String, hint: String? = nil, isMinorHint: Bool = false) {
        self.keys = keys
        self.action = action
        self.description = description
        self.hint = hint
        self.isMinorHint = isMinorHint
    }

    public init(_ key: Key, action: String, description: String, hint: String? = nil) {
        self.init(keys: [key], action: action, description: description, hint: hint)
    }

    public func matches(_ key: Key) -> Bool { keys.contains(key) }

    /// The keys as the help overlay shows them: "j/↓".
    public var keyLabel: String { keys.map(\.label).joined(separator: "/") }
}

extension Array where Element == KeyBinding {
    /// The first binding whose keys include `key`: list the screen's bindings before the
    /// global ones so a screen can override a global key.
    public func binding(for key: Key) -> KeyBinding? {
        first { $0.matches(key) }
    }

    /// The action name bound to `key`, if any.
    public func action(for key: Key) -> String? {
        binding(for: key)?.action
    }
}

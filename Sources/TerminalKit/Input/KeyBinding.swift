/// One row of a screen's key table: the keys, the action they trigger, and what the action
/// does. The same table drives key handling, the hint line and the help overlay, so the
/// three can never disagree (lazygit's idea). `Action` is the screen's own type of actions
/// (an enum), so a table is looked up without names to turn back into actions.
public struct KeyBinding<Action: Hashable & Sendable>: Hashable, Sendable {
    public var keys: [Key]
    public var action: Action
    /// Shown in the help overlay, e.g. "Delete the selected colour".
    public var description: String
    /// Shown in the hint line, e.g. "delete"; nil keeps the binding out of the hint line
    /// (it is still listed in the help overlay).
    public var hint: String?
    /// A hint the line shows only where there is room for it beside every other hint (the
    /// last minor ones give way first).
    public var isMinorHint: Bool
    /// Why the key does nothing now (lazygit's disabled reason), nil when it acts: the hint
    /// line leaves it out, the help says why, and pressing it tells the reason.
    public var disabledReason: String?

    public init(keys: [Key], action: Action, description: String, hint: String? = nil, isMinorHint: Bool = false) {
        self.keys = keys
        self.action = action
        self.description = description
        self.hint = hint
        self.isMinorHint = isMinorHint
    }

    public init(_ key: Key, action: Action, description: String, hint: String? = nil) {
        self.init(keys: [key], action: action, description: description, hint: hint)
    }

    public func matches(_ key: Key) -> Bool { keys.contains(key) }

    /// The keys as the help overlay shows them: "j/↓".
    public var keyLabel: String { keys.map(\.label).joined(separator: "/") }
}

extension Array {
    /// The first binding whose keys include `key`: list the screen's bindings before the
    /// global ones so a screen can override a global key.
    public func binding<Action>(for key: Key) -> KeyBinding<Action>? where Element == KeyBinding<Action> {
        first { $0.matches(key) }
    }

    /// The action bound to `key`, if any.
    public func action<Action>(for key: Key) -> Action? where Element == KeyBinding<Action> {
        binding(for: key)?.action
    }

    /// The same table with each binding whose action `reason` names disabled for that reason.
    public func disabling<Action>(_ reason: (Action) -> String?) -> [KeyBinding<Action>] where Element == KeyBinding<Action> {
        map { binding in
            var binding = binding
            binding.disabledReason = binding.disabledReason ?? reason(binding.action)
            return binding
        }
    }
}

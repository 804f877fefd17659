/// One labelled field of a `FormWidget`, with the message of its last validation (nil when
/// the value is fine). A field with `choices` is a picker: its value is one of them, chosen
/// with ←/→ or Space, never typed.
public struct FormField: Hashable, Sendable {
    public var label: String
    public var field: TextField
    public var message: String?
    /// The values a picker cycles through, in order; nil for a text field.
    public var choices: [String]?
    /// A value found on disk that is none of the choices: shown, and kept until changed.
    public var keptChoice: String?

    public init(label: String, text: String = "", placeholder: String = "", message: String? = nil,
                choices: [String]? = nil, keptChoice: String? = nil) {
        self.label = label
        self.field = TextField(text: text, placeholder: placeholder)
        self.message = message
        self.choices = choices
        self.keptChoice = keptChoice.flatMap { kept in choices?.contains(kept) == false ? kept : nil }
    }

    public var text: String {
        get { field.text }
        set { field.text = newValue }
    }

    /// What a picker cycles through: its choices, then the kept value.
    var cycle: [String] { (choices ?? []) + (keptChoice.map { [$0] } ?? []) }

    /// A picker's key: ←/→ or Space step through the choices; a letter jumps to the next one
    /// starting with it. Returns false for other keys.
    mutating func pick(_ key: Key) -> Bool {
        let cycle = self.cycle
        guard !cycle.isEmpty else { return false }
        let current = cycle.firstIndex(of: text)
        let count = cycle.count
        switch key {
        case .right, .character(" "): text = cycle[current.map { ($0 + 1) % count } ?? 0]
        case .left: text = cycle[current.map { ($0 + count - 1) % count } ?? count - 1]
        case .character(let c):
            let from = (current ?? -1) + 1
            let order = cycle[from...] + cycle[..<from]
            guard let next = order.first(where: { $0.lowercased().hasPrefix(c.lowercased()) }) else { return false }
            text = next
        default: return false
        }
        return true
    }

    /// The line under a picker listing its choices ("as on disk" marks the kept value).
    var choicesLine: String {
        cycle.map { $0 == keptChoice ? "\($0) (as on disk)" : $0 }.joined(separator: " · ")
    }
}

import TerminalKit

/// Tab in the `o` and `:` prompts, as a shell completes: the typed prefix grows to the longest
/// prefix its ids (or tabs' names) share; when it cannot grow, the ids are listed in the status line and each further
/// Tab (Shift-Tab: back) puts the next one in the field.
struct IDCompletion: Equatable {
    /// What was typed when the ids were listed.
    let typed: String
    /// The ids that start with `typed`, in the tab's (byte) order; empty when none does.
    let candidates: [String]
    /// The candidate in the field, once Tab has cycled to one.
    private(set) var current: Int?

    /// What one Tab does to `typed`: the text the field then holds, and the listing to show
    /// (nil when the text grew or is the only id).
    static func complete(_ typed: String, among ids: [String]) -> (text: String, listing: IDCompletion?) {
        let matches = ids.filter { $0.unicodeScalars.starts(with: typed.unicodeScalars) }
        guard let first = matches.first else { return (typed, IDCompletion(typed: typed, candidates: [])) }
        let common = matches.dropFirst().reduce(Array(first.unicodeScalars)) { prefix, id in
            Array(zip(prefix, id.unicodeScalars).prefix { $0 == $1 }.map(\.0))
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: common)
        if matches.count == 1 || common.count > typed.unicodeScalars.count { return (String(text), nil) }
        return (typed, IDCompletion(typed: typed, candidates: matches))
    }

    /// The next candidate (the previous one going back), for the field.
    mutating func cycle(forward: Bool) -> String {
        guard !candidates.isEmpty else { return typed }
        let count = candidates.count
        current = current.map { (($0 + (forward ? 1 : -1)) % count + count) % count } ?? (forward ? 0 : count - 1)
        return candidates[current!]
    }

    /// The status line's text: the names (`noun`s: ids, tabs), the one in the field in
    /// brackets, starting near it so it stays in view; or that none in `place` matches.
    func line(naming noun: String, in place: String?) -> String {
        guard !candidates.isEmpty else { return "No \(noun)\(place.map { " in \($0)" } ?? "") starts with \"\(typed.shownInMessage)\"" }
        let start = max(0, (current ?? 0) - 1)
        let shown = candidates.enumerated().dropFirst(start).map { $0.offset == current ? "[\($0.element)]" : $0.element }
        return "\(candidates.count.thousandsSeparated) \(noun)s: " + (start > 0 ? "… " : "") + shown.joined(separator: "  ")
    }
}

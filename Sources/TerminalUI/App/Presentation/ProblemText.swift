/// A document's problem as a list row says it: without the "document books/x, " the row
/// already shows, nor the "cannot be read: " its `!` says, and without the word "field", so
/// the reason fits beside the name.
enum ProblemText {
    static func short(_ message: String, path: String) -> String {
        var text = Substring(message)
        for prefix in ["document \(path), ", "document \(path): ", "document \(path) cannot be read: ", "document \(path) "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        if text.hasPrefix("field ") { text = text.dropFirst("field ".count) }
        return String(text)
    }
}

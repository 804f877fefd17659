/// Words a query's documents hold in their text (`Query.containing(words:)`, ours): a document
/// matches when each word is within one of its strings, at any depth of maps and arrays,
/// compared by UTF-8 bytes with ASCII letters in either case. Only ASCII is folded, as a
/// server folds it too (`PostgresSchema`'s `shelf_search_text`), so both agree on every match.
enum TextWords {
    /// The words as matched: folded to lower case, empty ones dropped.
    static func folded(_ words: [String]) -> [[UInt8]] {
        words.map { fold(Array($0.utf8)) }.filter { !$0.isEmpty }
    }

    static func fold(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    }

    /// True when each of `words` (folded) is within one of the strings of `fields`.
    static func match(_ words: [[UInt8]], in fields: Fields) -> Bool {
        var missing = words
        func look(_ value: FirestoreValue) {
            switch value {
            case .string(let string):
                let text = fold(Array(string.utf8))
                missing.removeAll { contains(text, $0) }
            case .array(let items): for item in items where !missing.isEmpty { look(item) }
            case .map(let map): for (_, item) in map where !missing.isEmpty { look(item) }
            default: break
            }
        }
        for (_, value) in fields where !missing.isEmpty { look(value) }
        return missing.isEmpty
    }

    private static func contains(_ text: [UInt8], _ word: [UInt8]) -> Bool {
        guard word.count <= text.count else { return false }
        return (0...(text.count - word.count)).contains { start in text[start..<start + word.count].elementsEqual(word) }
    }
}

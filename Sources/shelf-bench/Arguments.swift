import Foundation

/// Reading the numbers of the subcommands' options.
enum Arguments {
    /// `text` as a whole number of at least `minimum`; otherwise says what was expected and exits.
    static func number(_ text: String, for option: String, minimum: Int = 1, tool: String = "shelf-bench") -> Int {
        guard let number = Int(text), number >= minimum else {
            FileHandle.standardError.write(Data("\(tool): \(option) needs a whole number of at least \(minimum), got \"\(text)\"\n".utf8))
            exit(2)
        }
        return number
    }
}

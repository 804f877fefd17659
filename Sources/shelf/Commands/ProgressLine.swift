import Foundation
import TerminalKit
import TerminalUI

/// One line of progress on standard error, redrawn in place on a terminal; elsewhere (a
/// script, a log) one line per collection.
final class ProgressLine {
    let isTerminal = isatty(STDERR_FILENO) == 1
    private var isShowing = false

    func show(_ name: String, _ done: Int, of total: Int) {
        guard isTerminal, total > 0 else { return }
        let width = 30, filled = min(width, max(0, done * width / total))  // more done than counted: full
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        write("\r\u{1B}[K" + PrintableText.safe(name, maxLength: 40) + " [\(bar)] \(done.thousandsSeparated) of \(total.thousandsSeparated)")
        isShowing = true
    }

    func finish(_ name: String, _ total: Int) {
        write((isShowing ? "\r\u{1B}[K" : "") + PrintableText.safe(name) + ": \(total.thousandsSeparated) document\(total == 1 ? "" : "s")\n")
        isShowing = false
    }

    /// Takes the line away (the command's own last words follow on standard output).
    func clear() {
        if isShowing { write("\r\u{1B}[K") }
        isShowing = false
    }

    func interrupt(with message: String) {
        write((isShowing ? "\r\u{1B}[K" : "") + message + "\n")
        isShowing = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

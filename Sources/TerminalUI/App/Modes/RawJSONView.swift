import DocumentStore
import Foundation
import TerminalKit

/// `v`: the selected document as stored (its file, or on a server its stored JSON), line by
/// line, scrolled by its own keys. The text is read once per version of the document: a change
/// (a new snapshot) reads it again, so the view follows the document.
struct RawJSONView {
    let path: String
    private(set) var snapshot: DocumentSnapshot
    private(set) var lines: [DetailLine]
    /// Rows scrolled off the top; clamped when drawn.
    var offset = 0

    init(snapshot: DocumentSnapshot, text: (DocumentSnapshot) throws -> String) {
        path = snapshot.reference.path
        self.snapshot = snapshot
        lines = Self.read(snapshot, text)
    }

    /// Reads the text again when `current` is a newer snapshot of the document.
    mutating func follow(_ current: DocumentSnapshot, text: (DocumentSnapshot) throws -> String) {
        guard current !== snapshot, current.reference.path == path else { return }
        snapshot = current
        lines = Self.read(current, text)
    }

    /// The text's lines as they are (JSON's own indentation kept); why not, when it cannot be read.
    static func read(_ snapshot: DocumentSnapshot, _ text: (DocumentSnapshot) throws -> String) -> [DetailLine] {
        do {
            let text = try text(snapshot)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { DetailLine("", String($0)) }
            if lines.last?.value.isEmpty == true { lines.removeLast() }
            return lines
        } catch {
            return [DetailLine("", "Cannot read \(snapshot.reference.path): \(error.localizedDescription)", valueStyle: Style(bold: true))]
        }
    }
}

import DocumentStore
import Foundation

/// `v`: the selected document's file as stored, line by line, scrolled by its own keys.
/// The text is read once per version of the document: a change on disk (a new snapshot)
/// reads it again, so the view follows the file.
struct RawJSONView {
    let path: String
    private(set) var snapshot: DocumentSnapshot
    private(set) var lines: [DetailLine]
    /// Rows scrolled off the top; clamped when drawn.
    var offset = 0

    init(snapshot: DocumentSnapshot, file: URL) {
        path = snapshot.reference.path
        self.snapshot = snapshot
        lines = Self.read(file)
    }

    /// Reads the file again when `current` is a newer snapshot of the document.
    mutating func follow(_ current: DocumentSnapshot, file: URL) {
        guard current !== snapshot, current.reference.path == path else { return }
        snapshot = current
        lines = Self.read(file)
    }

    /// The file's lines as they are (JSON's own indentation kept); why not, when it cannot be read.
    static func read(_ file: URL) -> [DetailLine] {
        do {
            let text = try String(contentsOf: file, encoding: .utf8)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { DetailLine("", String($0)) }
            if lines.last?.value.isEmpty == true { lines.removeLast() }
            return lines
        } catch {
            return [DetailLine("", "Cannot read \(file.path): \(error.localizedDescription)", valueStyle: Style(bold: true))]
        }
    }
}

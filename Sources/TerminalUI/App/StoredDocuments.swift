import DocumentStore
import Foundation

/// The documents as stored, for what shows or hands over their text: `v`, `Y` and the editor.
/// A folder's documents are files; a server's are the JSON it stores.
struct StoredDocuments {
    /// The data folder, or the server's URL.
    let directory: URL

    /// True when the documents are files an editor can open (not rows on a database server).
    var hasFiles: Bool { directory.isFileURL }

    /// A document's file in the data folder.
    func fileURL(of reference: DocumentReference) -> URL {
        directory.appendingPathComponent(reference.path + ".json")
    }

    /// The document as stored: its file as it is (even one that cannot be read), or on a
    /// server the stored JSON.
    func text(of snapshot: DocumentSnapshot) throws -> String {
        if hasFiles {
            return try String(contentsOf: fileURL(of: snapshot.reference), encoding: .utf8)
        }
        guard let json = snapshot.storedJSON else {
            throw snapshot.readError.map { $0 as Error } ?? Missing(errorDescription: "the document does not exist")
        }
        return json
    }

    private struct Missing: LocalizedError { let errorDescription: String? }

    /// Why the editor cannot open the documents here, or nil when it can.
    var editorRefusal: String? {
        hasFiles ? nil : "The editor works on files; this store is on a server (\(directory.absoluteString)): use e, the form"
    }

    /// `Y`: the document as stored, for the terminal's clipboard, and what the status line
    /// says of it; no text when it cannot be read or is too large for a terminal's clipboard
    /// (the terminal would drop it silently).
    func clipboardCopy(of snapshot: DocumentSnapshot) -> (notice: String, text: String?) {
        let reference = snapshot.reference
        let path = reference.path
        do {
            let text = try text(of: snapshot)
            let bytes = text.utf8.count
            guard bytes <= Clipboard.maxBytes else {
                let instead = hasFiles ? "E opens \(path), or copy the file \(fileURL(of: reference).path)" : "v shows \(path)"
                return ("Not copied: \(bytes.formatted()) bytes, over the \(Clipboard.maxBytes.formatted()) "
                    + "a terminal's clipboard takes; \(instead)", nil)
            }
            return ("Copied \(path) to the clipboard as JSON (\(bytes.formatted()) bytes)", text)
        } catch {
            return ("Not copied: cannot read \(path).json: \(error.localizedDescription)", nil)
        }
    }

    /// `Y`: the selected document as stored, for the terminal's clipboard (`clipboardCopy`).
    @MainActor
    func copySelected(in state: inout AppState) -> Reply {
        guard let index = state.selectedIndex else { return Reply(notice: "Nothing to copy: the list is empty") }
        let copy = clipboardCopy(of: state.tab.snapshot(at: index))
        return Reply(notice: copy.notice, outcome: copy.text.map(Outcome.copyToClipboard) ?? .keepRunning)
    }
}

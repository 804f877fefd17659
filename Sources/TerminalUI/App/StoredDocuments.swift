import DocumentStore
import Foundation
import ShelfModels
import TerminalKit

/// The documents as stored, for what shows or hands over their text: `v`, `Y` and the editor.
/// A folder's documents are files; a server's are the JSON it stores.
struct StoredDocuments {
    /// The store, which knows whether its documents are files and where.
    let store: Firestore
    /// True when the documents are files an editor can open (not rows on a database server),
    /// asked once: a store's storage does not change.
    let hasFiles: Bool

    init(store: Firestore) {
        self.store = store
        hasFiles = store.keepsDocumentsAsFiles
    }

    /// A document's file, when the documents are files.
    func fileURL(of reference: DocumentReference) -> URL? { store.fileURL(for: reference.path) }

    /// The document as stored: its file as it is (even one that cannot be read), or on a
    /// server the stored JSON.
    func text(of snapshot: DocumentSnapshot) throws -> String {
        if let file = fileURL(of: snapshot.reference) {
            return try String(contentsOf: file, encoding: .utf8)
        }
        guard let json = snapshot.storedJSON else {
            throw snapshot.readError.map { $0 as Error } ?? Missing(errorDescription: "the document does not exist")
        }
        return json
    }

    private struct Missing: LocalizedError { let errorDescription: String? }

    /// `E`: the document's file for the editor, or why the editor cannot open it.
    func editorFile(of reference: DocumentReference) -> Result<URL, EditorRefusal> {
        guard let file = fileURL(of: reference) else {
            return .failure(EditorRefusal(reason: "The editor works on files; this store is on a server (\(store.placeName)): use e, the form"))
        }
        return .success(file)
    }

    struct EditorRefusal: Error { let reason: String }

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
                let instead = fileURL(of: reference).map { "E opens \(path), or copy the file \($0.path)" } ?? "v shows \(path)"
                return ("Not copied: \(bytes.thousandsSeparated) bytes, over the \(Clipboard.maxBytes.thousandsSeparated) "
                    + "a terminal's clipboard takes; \(instead)", nil)
            }
            return ("Copied \(path) to the clipboard as JSON (\(bytes.thousandsSeparated) bytes)", text)
        } catch {
            return ("Not copied: cannot read \(path).json: \(error.localizedDescription)", nil)
        }
    }

    /// `Y`: the selected document as stored, for the terminal's clipboard (`clipboardCopy`).
    @MainActor
    func copySelected(in state: inout AppState) -> Reply {
        guard let snapshot = state.selectedSnapshot else { return state.nothingSelected(to: "copy") }
        let copy = clipboardCopy(of: snapshot)
        return Reply(notice: copy.notice, outcome: copy.text.map(Outcome.copyToClipboard) ?? .keepRunning)
    }
}

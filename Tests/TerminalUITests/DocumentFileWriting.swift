import Foundation

extension URL {
    /// Writes `json` as the document at `path` ("books/dune") of the folder store here, making
    /// its collection's folders.
    func writeDocument(_ path: String, _ json: String) throws {
        let url = appendingPathComponent(path + ".json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: url)
    }
}

import Foundation

/// Follows one document's file: one `fstatat` a look, a read only when its stamp moved.
final class DocumentFileChanges: ChangeSource, @unchecked Sendable {
    private let files: DocumentFiles
    private let path: ResourcePath
    private var stamp: FileStamp?
    private var isRacy = false

    init(files: DocumentFiles, path: ResourcePath) {
        self.files = files
        self.path = path
    }

    func look(into documents: WatchedDocuments, for watcher: Watcher) throws {
        guard let firestore = watcher.firestore else { return }
        let fileName = path.last + DocumentFiles.fileExtension
        var stored = StoredDocument.missing
        var newStamp: FileStamp?
        if let fd = try files.root.openFolder(path.parent.segments, create: false) {
            defer { close(fd) }
            var st = stat()
            if fstatat(fd, fileName, &st, AT_SYMLINK_NOFOLLOW) == 0 {
                if documents.document != nil && FileStamp(st) == stamp && !isRacy { return }
                (stored, newStamp) = files.readDocument(in: fd, fileName: fileName, store: firestore)
            }
        }
        stamp = newStamp
        isRacy = newStamp.map { Date().timeIntervalSince1970 - $0.lastChange < CollectionFolderChanges.racyWindow } ?? false
        documents.take(document: stored, at: DocumentReference(firestore: firestore, path: path))
    }
}

import Foundation

/// Watches one document's file: one `fstatat` a tick, a read only when its stamp moved.
final class DocumentWatcher: Watcher, @unchecked Sendable {
    let reference: DocumentReference
    private var stamp: FileStamp?
    private var isRacy = false
    private var current: DocumentSnapshot?

    init(firestore: Firestore, reference: DocumentReference) {
        self.reference = reference
        super.init(firestore: firestore, key: .document(reference.resourcePath))
    }

    override func hasDelivered(to subscription: Subscription) -> Bool {
        (subscription as? DocumentSubscription)?.hasDelivered ?? true
    }

    override func send(to subscription: Subscription, changed: Set<ExactID>?) {
        if let current { (subscription as? DocumentSubscription)?.update(current) }
    }

    override func scan() throws -> Set<ExactID> {
        let path = reference.resourcePath
        let fileName = path.last + DocumentFiles.fileExtension
        var stored = StoredDocument.missing
        var newStamp: FileStamp?
        if let fd = try files.openFolder(path.parent.segments, create: false) {
            defer { close(fd) }
            var st = stat()
            if fstatat(fd, fileName, &st, AT_SYMLINK_NOFOLLOW) == 0 {
                if current != nil && FileStamp(st) == stamp && !isRacy { return [] }
                (stored, newStamp) = files.readDocument(in: fd, fileName: fileName, store: reference.firestore)
            }
        }
        stamp = newStamp
        isRacy = newStamp.map { Date().timeIntervalSince1970 - $0.lastChange < CollectionWatcher.racyWindow } ?? false
        guard current?.stored != stored else { return [] }
        current = DocumentSnapshot(reference: reference, stored: stored)
        return [ExactID(path.last)]
    }
}

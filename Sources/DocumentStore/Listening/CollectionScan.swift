import Foundation

/// One-off reads of a whole collection (`getDocuments`), read and parsed on every core.
enum CollectionScan {
    /// Every document of the collection, keyed by the bytes of its id; a file whose name is not
    /// valid UTF-8 is there too, as a document that cannot be read.
    static func readAll(firestore: Firestore, path: ResourcePath) throws -> [ExactID: QueryDocumentSnapshot] {
        let documents = try readSorted(firestore: firestore, path: path)
        return Dictionary(documents.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same documents in Firestore's order of a collection: by the bytes of their ids.
    static func readSorted(firestore: Firestore, path: ResourcePath) throws -> [QueryDocumentSnapshot] {
        let readLock = firestore.files.lockForReading(); defer { readLock?.release() }  // never half a batch
        guard let fd = try firestore.files.openFolder(path.segments, create: false) else { return [] }
        defer { close(fd) }
        var files: [(id: ExactID, name: String)] = []
        for entry in DocumentFiles.listEntries(fd) where entry.isDirectory != true {
            if let id = DocumentFileName.id(of: entry) { files.append((id, entry.name)) }
        }
        return read(sortedByID(files), in: fd, path: path, firestore: firestore)
    }

    /// Sorted as `ExactID` orders them, comparing copies of the ids' bytes laid end to end, so
    /// that sorting 100,000 names retains and releases nothing.
    private static func sortedByID(_ files: [(id: ExactID, name: String)]) -> [(id: ExactID, name: String)] {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        spans.reserveCapacity(files.count)
        for file in files {
            spans.append((bytes.count, file.id.text.utf8.count))
            bytes += file.id.text.utf8
        }
        var order = Array(files.indices)
        bytes.withUnsafeBufferPointer { bytes in
            spans.withUnsafeBufferPointer { spans in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                order.sort { i, j in
                    let (a, b) = (spans[i], spans[j])
                    let common = min(a.count, b.count)
                    let order = common == 0 ? 0 : memcmp(base + a.start, base + b.start, common)
                    if order != 0 { return order < 0 }
                    if a.count != b.count { return a.count < b.count }
                    return files[i].id < files[j].id  // a name that is not UTF-8 after its look-alike
                }
            }
        }
        return order.map { files[$0] }
    }

    /// Files per task: enough that a task's overhead vanishes, few enough that the cores share
    /// the work evenly.
    private static let chunk = 512

    /// Reads `files` (sorted) on every core, each task into its own part of the answer.
    private static func read(_ files: [(id: ExactID, name: String)], in fd: Int32, path: ResourcePath,
                             firestore: Firestore) -> [QueryDocumentSnapshot] {
        var slots = [QueryDocumentSnapshot?](repeating: nil, count: files.count)
        let tasks = (files.count + chunk - 1) / chunk
        let store = firestore.files
        slots.withUnsafeMutableBufferPointer { slots in
            let slots = UnsafeSlots(base: slots.baseAddress)
            DispatchQueue.concurrentPerform(iterations: tasks) { task in
                var buffer: [UInt8] = []
                for index in task * chunk..<min(files.count, (task + 1) * chunk) {
                    let (id, name) = files[index]
                    if id.isUndecodableFileName {
                        slots.set(index, DocumentFileName.undecodableDocument(id, in: path, firestore: firestore))
                        continue
                    }
                    let (stored, _) = store.readDocument(in: fd, fileName: name, store: firestore, buffer: &buffer, counted: false)
                    if stored == .missing { continue }
                    let reference = DocumentReference(firestore: firestore, path: path.appending(id.text))
                    slots.set(index, QueryDocumentSnapshot(reference: reference, stored: stored, key: id))
                }
            }
        }
        firestore.files.filesRead.withLock { $0 += files.count { !$0.id.isUndecodableFileName } }
        return slots.compactMap { $0 }
    }

    /// The answer's slots, which the tasks fill at disjoint indices.
    private struct UnsafeSlots: @unchecked Sendable {
        let base: UnsafeMutablePointer<QueryDocumentSnapshot?>?
        func set(_ index: Int, _ document: QueryDocumentSnapshot) { base![index] = document }
    }
}

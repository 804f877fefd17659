import Foundation

/// Which names in a collection's folder are documents, read on their bytes: `<id>.json`, where
/// the id does not start with "." (the store's temporary files do). A file whose name is not
/// valid UTF-8 is still a document, one that cannot be read: it is reported, never dropped.
enum DocumentFileName {
    private static let suffix = Array(DocumentFiles.fileExtension.utf8)

    /// The id a folder entry stands for, or nil for anything that is not a document file.
    static func id(of entry: FolderListing.Entry) -> ExactID? {
        if let bytes = entry.undecodableName { return bytes.withUnsafeBufferPointer(id(ofFileName:)) }
        var name = entry.name
        return name.withUTF8(id(ofFileName:))
    }

    /// The id a file name's bytes stand for, or nil for anything that is not a document file.
    static func id(ofFileName bytes: UnsafeBufferPointer<UInt8>) -> ExactID? {
        var arena = IDArena(blockSize: 0)
        return id(ofFileName: bytes, in: &arena)
    }

    /// The same, the id's bytes kept in `arena`'s blocks.
    static func id(ofFileName bytes: UnsafeBufferPointer<UInt8>, in arena: inout IDArena) -> ExactID? {
        guard let stem = stem(bytes) else { return nil }
        guard isUTF8(stem) else { return ExactID(undecodableFileName: escaped(stem)) }
        return arena.id(UnsafeBufferPointer(rebasing: stem))
    }

    /// Whether the bytes are valid UTF-8, as `String(validating:)` tells, without the string.
    private static func isUTF8(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 } || !transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
    }

    /// The document files of an open folder, in its order, with the inodes readdir gives for
    /// free: made from the names' bytes, the ids' bytes in shared blocks (`IDArena`).
    static func documents(in dirFD: Int32) -> [(id: ExactID, inode: UInt64)] {
        var documents: [(id: ExactID, inode: UInt64)] = []
        var arena = IDArena()
        FolderListing.forEachEntry(dirFD) { name, inode, isDirectory in
            if isDirectory != true, let id = id(ofFileName: name, in: &arena) { documents.append((id, inode)) }
            return true
        }
        return documents
    }

    /// The name without ".json", unless it is not a document's name.
    private static func stem<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence? {
        guard bytes.count > suffix.count, bytes.first != UInt8(ascii: "."), bytes.suffix(suffix.count).elementsEqual(suffix) else {
            return nil
        }
        return bytes.dropLast(suffix.count)
    }

    /// The snapshot of a document whose file name is not valid UTF-8: it exists and cannot be
    /// read, and its reference refuses every operation, since no id names that file.
    static func undecodableDocument(_ id: ExactID, in collection: ResourcePath, firestore: Firestore) -> QueryDocumentSnapshot {
        let path = collection.appending(id.text)
        let reason = "the file name \"\(id.text)\(DocumentFiles.fileExtension)\" is not valid UTF-8 (the bytes that are not are shown as \\xHH); "
            + "the store cannot name this document: rename the file to a UTF-8 name"
        let reference = DocumentReference(firestore: firestore, path: path,
                                          invalid: DocumentStoreError.invalidPath(path.description, reason: reason))
        return QueryDocumentSnapshot(reference: reference, stored: .unreadable(reason), key: id)
    }

    /// The bytes as text: valid UTF-8 as itself, every other byte as `\xHH`, and a backslash
    /// doubled, so that the text says exactly which bytes the name has.
    static func escaped(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var text = ""
        var i = 0
        next: while i < bytes.count {
            if bytes[i] < 0x80 {
                text += bytes[i] == UInt8(ascii: "\\") ? "\\\\" : String(UnicodeScalar(bytes[i]))
                i += 1
                continue
            }
            for length in 2...4 where i + length <= bytes.count {
                if let scalar = String(validating: bytes[i..<i + length], as: UTF8.self), scalar.unicodeScalars.count == 1 {
                    text += scalar
                    i += length
                    continue next
                }
            }
            text += "\\x" + (bytes[i] < 16 ? "0" : "") + String(bytes[i], radix: 16, uppercase: true)
            i += 1
        }
        return text
    }
}

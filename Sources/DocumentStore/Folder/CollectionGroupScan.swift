import Foundation

/// Finds every collection with one id at any depth: `<data>/<id>/`, `<data>/a/b/<id>/` and so
/// on (a document's subcollections live in the folder `<collection>/<document id>/`). A
/// folder's list of subfolders is kept with its stamp and read again only when the folder
/// changed, so a watcher's look costs one `fstat` per folder when nothing moved.
final class CollectionGroupScan {
    let collectionID: String
    private var subfolders: [ResourcePath: (stamp: FileStamp, names: [String])] = [:]

    init(collectionID: String) {
        self.collectionID = collectionID
    }

    /// The paths of the matching collections, sorted.
    func collections(in files: DocumentFiles) throws -> [ResourcePath] {
        guard let root = try files.root.openFolder([], create: false) else { return [] }
        defer { close(root) }
        var found: [ResourcePath] = []
        var seen: Set<ResourcePath> = []
        walk(root, ResourcePath(segments: []), &found, &seen)
        subfolders = subfolders.filter { seen.contains($0.key) }
        return found.sorted { $0.description < $1.description }
    }

    private func walk(_ fd: Int32, _ path: ResourcePath, _ found: inout [ResourcePath], _ seen: inout Set<ResourcePath>) {
        seen.insert(path)
        for name in names(in: fd, path) {
            let child = path.appending(name)
            if !child.isDocument && UTF8Bytes.equal(name, collectionID) { found.append(child) }
            let childFD = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard childFD >= 0 else { continue }
            walk(childFD, child, &found, &seen)
            close(childFD)
        }
    }

    /// The folder's subfolders whose names are valid ids (not the store's own ".shelf").
    private func names(in fd: Int32, _ path: ResourcePath) -> [String] {
        var st = stat()
        fstat(fd, &st)
        let stamp = FileStamp(st)
        if let cached = subfolders[path], cached.stamp == stamp { return cached.names }
        let names = FolderListing.listEntries(fd).compactMap { entry -> String? in
            guard entry.undecodableName == nil, !entry.name.hasSuffix(DocumentFiles.fileExtension) || entry.isDirectory == true else { return nil }
            guard (try? ResourcePath.validate(id: entry.name, in: "", rules: .folder)) != nil else { return nil }
            if let isDirectory = entry.isDirectory { return isDirectory ? entry.name : nil }
            var child = stat()
            return fstatat(fd, entry.name, &child, AT_SYMLINK_NOFOLLOW) == 0 && (child.st_mode & S_IFMT) == S_IFDIR ? entry.name : nil
        }
        // A folder changed within the racy window could change again under the same stamp.
        if Date().timeIntervalSince1970 - stamp.lastChange >= CollectionFolderChanges.racyWindow {
            subfolders[path] = (stamp, names)
        } else {
            subfolders[path] = nil
        }
        return names
    }

    /// Every document of every matching collection, keyed by its whole path.
    static func readAll(files: DocumentFiles, firestore: Firestore, collectionID: String) throws -> [QueryDocumentSnapshot] {
        let paths = try files.reading { try CollectionGroupScan(collectionID: collectionID).collections(in: files) }
        var documents: [QueryDocumentSnapshot] = []
        for path in paths { documents += try CollectionScan.readSorted(files: files, firestore: firestore, path: path) }
        return documents
    }
}

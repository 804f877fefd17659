@testable import DocumentStore

extension Firestore {
    /// A folder store's files, for the tests that count what it reads and syncs (only ever
    /// asked of a store on a folder).
    var files: DocumentFiles { (backend as! FolderBackend).files }
}

import Foundation

/// Firebase's raw values: `added` 0, `modified` 1, `removed` 2.
public enum DocumentChangeType: Int, Sendable {
    case added, modified, removed
}

/// One change in a query's results. Indices are as Firestore defines them: applying the
/// changes in order to the previous results gives the new ones; `oldIndex` is `NSNotFound`
/// for `.added`, `newIndex` is `NSNotFound` for `.removed`.
public struct DocumentChange: Sendable {
    public let type: DocumentChangeType
    public let document: QueryDocumentSnapshot
    public let oldIndex: UInt
    public let newIndex: UInt
    /// Only `hasPendingWrites` changed, not the data (this store's write, now committed):
    /// Firebase's metadata change, which only `documentChanges(includeMetadataChanges: true)`
    /// shows.
    let isMetadataOnly: Bool

    init(type: DocumentChangeType, document: QueryDocumentSnapshot, oldIndex: UInt, newIndex: UInt, isMetadataOnly: Bool = false) {
        self.type = type
        self.document = document
        self.oldIndex = oldIndex
        self.newIndex = newIndex
        self.isMetadataOnly = isMetadataOnly
    }

    static let notFound = UInt(NSNotFound)
}

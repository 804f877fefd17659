import Foundation

/// What a half-typed form holds, kept on disk when Shelf is stopped by SIGTERM or SIGHUP so
/// nothing a person typed is lost; the next start offers to reopen it.
public struct FormDraft: Codable, Equatable, Sendable {
    /// The form's title when it was kept, e.g. "Edit books/hitchhiker" or "New colour".
    public var title: String
    public var collectionID: String
    /// The document the form edits; nil for a new one.
    public var documentID: String?
    public var labels: [String]
    public var values: [String]
    /// The values the form opened with: if the document now gives others, it changed on disk
    /// in between and saving asks first.
    public var initialValues: [String]
    public var focus: Int
    public var savedAt: Date

    public init(title: String, collectionID: String, documentID: String?, labels: [String], values: [String],
                initialValues: [String], focus: Int, savedAt: Date = Date()) {
        self.title = title
        self.collectionID = collectionID
        self.documentID = documentID
        self.labels = labels
        self.values = values
        self.initialValues = initialValues
        self.focus = focus
        self.savedAt = savedAt
    }
}

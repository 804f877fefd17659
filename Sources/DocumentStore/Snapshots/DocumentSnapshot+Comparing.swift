/// Ours: telling whether a document is as a tool left it, and which of its fields a change set
/// (Shelf's undo checks the first and puts back only the second).
extension DocumentSnapshot {
    /// The names of the top-level fields that differ between this document and `other`: those
    /// in one only, and those whose values differ by Firestore's equality. A missing document,
    /// or nil, has no fields; an unreadable one is compared as having none too, so look at
    /// `readError` first. Empty when both hold the same fields.
    public func namesOfFieldsChanged(since other: DocumentSnapshot?) -> Set<String> {
        let mine = stored.fields, theirs = other?.stored.fields
        if let mine, let theirs, mine == theirs { return [] }
        var names = Set<String>()
        for (name, value) in mine ?? [:] where theirs?[name] != value { names.insert(name) }
        for (name, _) in theirs ?? [:] where mine?[name] == nil { names.insert(name) }
        return names
    }

    /// True when both documents are missing, or both exist with the same fields.
    public func holdsTheSame(as other: DocumentSnapshot?) -> Bool {
        exists == (other?.exists ?? false) && stored.fields == other?.stored.fields
    }
}

import DocumentStore

/// A cell as the stored document gives it, without decoding the document's model: what a
/// list sorts and searches every row by, so that of a million documents only the rows drawn
/// are decoded. For the sample's plain fields its text is the text the model's column draws.
struct StoredCell {
    var text: String
    /// Set for a number: the column sorts by it, before any text.
    var number: Double?

    init(text: String, number: Double? = nil) {
        self.text = text
        self.number = number
    }

    var sortKey: SortKey { number.map(SortKey.number) ?? SortKey(text: text) }

    /// Any stored value as a plain cell writes it: a string as it is, a number by its digits
    /// (sorted by value), an array's items joined by ", " (as the Genres column draws them);
    /// nil for null, which a model reads as no value; bytes and maps as messages name them.
    init?(_ value: FirestoreValue) {
        switch value {
        case .null: return nil
        case .boolean(let boolean): self.init(text: boolean ? "true" : "false")
        case .integer(let integer): self.init(text: String(integer), number: Double(integer))
        case .double(let double): self.init(text: "\(double)", number: double)
        case .string(let string): self.init(text: string)
        case .timestamp(let timestamp):
            self.init(text: timestamp.rfc3339, number: Double(timestamp.seconds) + Double(timestamp.nanoseconds) / 1e9)
        case .array(let items): self.init(text: items.compactMap { StoredCell($0)?.text }.joined(separator: ", "))
        case .geoPoint(let point): self.init(text: "(\(point.latitude), \(point.longitude))")
        case .reference(let reference): self.init(text: reference.path)
        case .bytes, .map: self.init(text: value.described)
        }
    }

    /// Folds the text of the cell of the value at `path` into `bytes`: the bytes of
    /// `TextFolding.fold` of `field(path)`'s text, read in place without making the cell or
    /// its strings (a list's search texts fold every row's cells so).
    static func folding(_ path: [String]) -> @Sendable (DocumentSnapshot, inout [UInt8]) -> Void {
        { snapshot, bytes in
            guard case .fields(let fields) = snapshot.stored else { return }
            fields.withValue(at: path) { value in
                switch value {
                case .utf8(let utf8): TextFolding.fold(utf8: utf8, into: &bytes)
                case .value(let value): fold(value, into: &bytes)
                }
            }
        }
    }

    /// The text of `value`'s cell folded into `bytes`; an array's items one after the other,
    /// ", " between them, without joining them first.
    private static func fold(_ value: FirestoreValue, into bytes: inout [UInt8]) {
        guard case .array(let items) = value else {
            if let text = StoredCell(value)?.text { TextFolding.fold(text, into: &bytes) }
            return
        }
        var first = true
        for item in items {
            guard let text = StoredCell(item)?.text else { continue }
            if !first {
                bytes.append(0x2C)
                bytes.append(0x20)
            }
            first = false
            TextFolding.fold(text, into: &bytes)
        }
    }

    /// The cell of the value at `path` (a field's names, outermost first), `convert`ed; nil
    /// when the document has no such field (or could not be read).
    static func field(_ path: [String], _ convert: @escaping @Sendable (FirestoreValue) -> StoredCell? = { StoredCell($0) })
        -> @Sendable (DocumentSnapshot) -> StoredCell? {
        { snapshot in snapshot.stored.fields?.value(at: path).flatMap(convert) }
    }
}

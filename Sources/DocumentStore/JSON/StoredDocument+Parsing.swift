extension StoredDocument {
    /// A document from its bytes in the on-disk encoding (`DocumentJSON`): a file's, or a
    /// database server's text of it. Bytes that are no document are a document that cannot
    /// be read, with the reason; `scratch` is shared by the documents read one after another.
    package static func parse(_ bytes: ArraySlice<UInt8>, store: Firestore, scratch: inout DocumentParser.Scratch) -> StoredDocument {
        if let fields = bytes.withUnsafeBufferPointer({ DocumentParser.fields($0, store: store, scratch: &scratch) }) { return .fields(fields) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .unreadable("not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            return .unreadable("the file holds \(value.described), not a JSON object of fields")
        }
        do {
            return .fields(try DocumentJSON.fields(object, store: store))
        } catch {
            return .unreadable("\(error)")
        }
    }
}

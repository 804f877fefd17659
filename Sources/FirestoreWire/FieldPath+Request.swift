import DocumentStore

extension FieldPath {
    /// A request's field path (`FieldPath.parse(serverFormat:)`), refused as a bad argument
    /// named by `field`.
    package static func parse(_ text: String, field: String) throws(WireError) -> FieldPath {
        do { return try parse(serverFormat: text) } catch { throw .invalidArgument("\(field): \(error)") }
    }
}

import DocumentStore

extension ResourceName {
    /// A request's resource name (`ResourceName(parsing:)`), refused as a bad argument named
    /// by `field`.
    package static func parse(_ text: String, field: String, underDocuments: Bool = false) throws(WireError) -> ResourceName {
        do { return try ResourceName(parsing: text, underDocuments: underDocuments) } catch { throw .invalidArgument("\(field): \(error)") }
    }
}

import DocumentStore

// Until the store keeps documents' times (in progress): every document reads as written now.
package struct DocumentTimes: Sendable, Equatable {
    package var created: Timestamp
    package var updated: Timestamp
}

extension Firestore {
    func documentTimes(_ paths: [String]) throws -> [DocumentTimes?] {
        try paths.map { try document($0).readDocument().exists ? DocumentTimes(created: Timestamp(), updated: Timestamp()) : nil }
    }
}

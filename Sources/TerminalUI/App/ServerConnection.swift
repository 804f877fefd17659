import DocumentStore
import Foundation
import Observation

/// Whether the store's server answers. A server can go away while Shelf runs; the app then
/// stays up on the rows it has, says it is offline (the server and the reason) and keeps what
/// was typed. Observable, so that going offline or coming back between keys is drawn at once.
/// A folder has no such state (its errors are its files'): a folder's app has no connection.
@Observable @MainActor
final class ServerConnection {
    /// The server as messages name it: its URL without the password.
    let server: String
    /// Why the server could not be reached at the last try; nil while it answers.
    private(set) var offlineReason: String?

    init(server: String) { self.server = server }

    var isOffline: Bool { offlineReason != nil }

    /// "Offline: postgresql://shelf@127.0.0.1:5432/shelf — Connection refused; retrying"
    var statusLine: String? {
        offlineReason.map { "Offline: \(server) — \($0); retrying" }
    }

    /// How a call to the server went: an error saying it cannot be reached is offline; an
    /// answer, even an error of another kind, means the server is there.
    func note(_ error: Error?) {
        let reason = error.flatMap(Self.unreachableReason)
        if offlineReason != reason { offlineReason = reason }
    }

    /// The reason `error` gives for not reaching the server (`.unavailable`, or
    /// `.deadlineExceeded`: no answer in time); nil for any other error.
    static func unreachableReason(_ error: Error) -> String? {
        guard let error = error as? FirestoreErrorCode, error.code == .unavailable || error.code == .deadlineExceeded else { return nil }
        return error.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String ?? error.description
    }

    /// The server answered: no longer offline, and the failures of writes tried while it was
    /// are forgotten by `tabs` (they said it could not be reached; the form kept says the
    /// rest). Returns whether it was offline.
    @discardableResult
    func answered(forgetting tabs: [CollectionTab]) -> Bool {
        guard isOffline else { return false }
        note(nil)
        for tab in tabs { tab.forgetWriteError() }
        return true
    }
}

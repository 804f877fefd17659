import Foundation

/// What went wrong outside of mapping: a bad path, a file that cannot be read or written.
/// Each description names the document or folder and says what was expected. Callers see it as
/// a `FirestoreErrorCode` (`firestoreError`) with this description.
package enum DocumentStoreError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// An id or path that Firestore or the file system does not allow.
    case invalidPath(String, reason: String)
    /// A value that cannot be stored (NaN, an unsupported type, a FieldValue in the wrong place).
    case invalidValue(path: String, field: String, reason: String)
    /// The document is over 1 MiB.
    case documentTooLarge(path: String, bytes: Int)
    /// `updateData` on a document that does not exist.
    case notFound(path: String)
    /// The file is not a JSON object; Shelf will not merge into it or overwrite it unasked.
    case unreadableDocument(path: String, reason: String)
    /// A system call failed: `errno` when the system said why.
    case io(path: String, operation: String, reason: String, errno: Int32? = nil)
    /// A transaction's document changed after the transaction read it: `.failedPrecondition`,
    /// as Firestore's server answers the SDK's commit whose read version no longer holds.
    case changedSinceRead(path: String)
    /// A transaction read one document twice and saw two versions (`.aborted`, as Firestore's SDK).
    case changedBetweenReads(path: String)
    /// A call that Firestore refuses (a batch used after commit, too many writes...).
    case invalidCall(String)

    package var description: String {
        switch self {
        case .invalidPath(let path, let reason): return "invalid path \"\(path)\": \(reason)"
        case .invalidValue(let path, let field, let reason):
            return "document \(path), field \(field): \(reason)"
        case .documentTooLarge(let path, let bytes):
            return "document \(path) is \(bytes) bytes; a document is at most 1 MiB (1048576 bytes)"
        case .notFound(let path): return "document \(path) does not exist (updateData needs an existing document)"
        case .unreadableDocument(let path, let reason): return "document \(path) cannot be read: \(reason)"
        case .io(let path, let operation, let reason, _): return "cannot \(operation) \(path): \(reason)"
        case .changedSinceRead(let path): return "document \(path) changed after the transaction read it"
        case .changedBetweenReads(let path): return "document \(path) changed between two reads in one transaction"
        case .invalidCall(let message): return message
        }
    }

    var code: FirestoreErrorCode.Code {
        switch self {
        case .invalidPath, .invalidValue, .documentTooLarge, .invalidCall: return .invalidArgument
        case .notFound: return .notFound
        case .unreadableDocument: return .dataLoss
        case .changedSinceRead: return .failedPrecondition
        case .changedBetweenReads: return .aborted
        case .io(_, _, _, let errno):
            return errno == EACCES || errno == EROFS ? .permissionDenied : .unavailable
        }
    }

    /// The error as callers see it: the description, and its parts apart for a program to
    /// show as it likes (`FirestoreErrorCode.path`, `.field`, `localizedFailureReason`; a
    /// system call's errno as the underlying `POSIXError`), never to be parsed from the text.
    package var firestoreError: FirestoreErrorCode {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        switch self {
        case .invalidPath(let path, let reason): info[FirestoreErrorCode.pathKey] = path; info[NSLocalizedFailureReasonErrorKey] = reason
        case .invalidValue(let path, let field, let reason):
            info[FirestoreErrorCode.pathKey] = path; info[FirestoreErrorCode.fieldKey] = field; info[NSLocalizedFailureReasonErrorKey] = reason
        case .unreadableDocument(let path, let reason): info[FirestoreErrorCode.pathKey] = path; info[NSLocalizedFailureReasonErrorKey] = reason
        case .io(let path, _, let reason, let errno):
            info[FirestoreErrorCode.pathKey] = path; info[NSLocalizedFailureReasonErrorKey] = reason
            if let errno, let code = POSIXErrorCode(rawValue: errno) { info[NSUnderlyingErrorKey] = POSIXError(code) as NSError }
        case .documentTooLarge(let path, _), .notFound(let path), .changedSinceRead(let path), .changedBetweenReads(let path):
            info[FirestoreErrorCode.pathKey] = path
        case .invalidCall: break
        }
        return FirestoreErrorCode(code, userInfo: info)
    }

    package var errorDescription: String? { description }

    static func io(_ path: String, _ operation: String, errno code: Int32) -> DocumentStoreError {
        .io(path: path, operation: operation, reason: String(cString: strerror(code)), errno: code)
    }
}

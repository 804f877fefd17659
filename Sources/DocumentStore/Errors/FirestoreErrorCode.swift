import Foundation

/// The domain of every error the store reports, as Firebase's.
public let FirestoreErrorDomain = "FIRFirestoreErrorDomain"

/// The error the store throws and hands to completions and listeners: an `NSError` in
/// `FirestoreErrorDomain` whose `code` is a `Code`'s raw value, as Firebase's errors are. It is a
/// class, not Firebase's bridged struct, because on Linux `catch let error as NSError` (Firebase's
/// docs' transaction block) matches only a real `NSError` instance. `error as? FirestoreErrorCode`,
/// `error.code == .notFound`, `switch error.code { case .notFound: … }` and
/// `catch FirestoreErrorCode.notFound` work as with Firebase's. The description names the
/// document, the field, what was expected and what was found.
public final class FirestoreErrorCode: NSError, LocalizedError, @unchecked Sendable {
    /// Firestore's codes (those of gRPC), with their numbers.
    public enum Code: Int, Sendable {
        case OK = 0
        case cancelled = 1
        case unknown = 2
        case invalidArgument = 3
        case deadlineExceeded = 4
        case notFound = 5
        case alreadyExists = 6
        case permissionDenied = 7
        case resourceExhausted = 8
        case failedPrecondition = 9
        case aborted = 10
        case outOfRange = 11
        case unimplemented = 12
        case `internal` = 13
        case unavailable = 14
        case dataLoss = 15
        case unauthenticated = 16

        /// The name Firestore's protocol gives the code (`google.rpc.Code`): what its clients
        /// print and its REST errors carry as `status`.
        package var statusName: String {
            switch self {
            case .OK: "OK"
            case .cancelled: "CANCELLED"
            case .unknown: "UNKNOWN"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .deadlineExceeded: "DEADLINE_EXCEEDED"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .aborted: "ABORTED"
            case .outOfRange: "OUT_OF_RANGE"
            case .unimplemented: "UNIMPLEMENTED"
            case .internal: "INTERNAL"
            case .unavailable: "UNAVAILABLE"
            case .dataLoss: "DATA_LOSS"
            case .unauthenticated: "UNAUTHENTICATED"
            }
        }

        /// The HTTP status Google's REST APIs answer the code with (`google/rpc/code.proto`).
        package var httpStatus: Int {
            switch self {
            case .OK: 200
            case .cancelled: 499
            case .invalidArgument, .failedPrecondition, .outOfRange: 400
            case .unauthenticated: 401
            case .permissionDenied: 403
            case .notFound: 404
            case .alreadyExists, .aborted: 409
            case .resourceExhausted: 429
            case .unimplemented: 501
            case .unavailable: 503
            case .deadlineExceeded: 504
            case .unknown, .internal, .dataLoss: 500
            }
        }
    }

    public convenience init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(domain: FirestoreErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The document or folder the error is about, where it names one (ours).
    package var path: String? { userInfo[Self.pathKey] as? String }
    /// The field the error is about, where it names one (ours).
    package var field: String? { userInfo[Self.fieldKey] as? String }
    /// What is wrong without the document it is about: the field and the reason where the
    /// error has them apart, else its whole description (ours).
    package var reasonWithoutPath: String {
        guard let reason = localizedFailureReason else { return localizedDescription }
        return field.map { "\($0): \(reason)" } ?? reason
    }
    static let pathKey = "FIRFirestoreErrorPath"
    static let fieldKey = "FIRFirestoreErrorField"

    /// An error saying `message`, with `reason` apart where the message wraps one (for
    /// `reasonWithoutPath`).
    package convenience init(_ code: Code, _ message: String, reason: String? = nil) {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let reason { userInfo[NSLocalizedFailureReasonErrorKey] = reason }
        self.init(code, userInfo: userInfo)
    }

    public static var errorDomain: String { FirestoreErrorDomain }

    /// As the bridged struct's: the raw code and the `userInfo`.
    public var errorCode: Int { code }
    public var errorUserInfo: [String: Any] { userInfo }

    /// The message alone (not NSError's "Error Domain=… Code=…"), so that printing an error says
    /// what went wrong.
    public override var description: String { userInfo[NSLocalizedDescriptionKey] as? String ?? "Firestore error \(code)" }

    public var errorDescription: String? { description }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? FirestoreErrorCode else { return false }
        return code == other.code && description == other.description
    }

    public override var hash: Int { code }

    public static var OK: Code { .OK }
    public static var cancelled: Code { .cancelled }
    public static var unknown: Code { .unknown }
    public static var invalidArgument: Code { .invalidArgument }
    public static var deadlineExceeded: Code { .deadlineExceeded }
    public static var notFound: Code { .notFound }
    public static var alreadyExists: Code { .alreadyExists }
    public static var permissionDenied: Code { .permissionDenied }
    public static var resourceExhausted: Code { .resourceExhausted }
    public static var failedPrecondition: Code { .failedPrecondition }
    public static var aborted: Code { .aborted }
    public static var outOfRange: Code { .outOfRange }
    public static var unimplemented: Code { .unimplemented }
    public static var `internal`: Code { .internal }
    public static var unavailable: Code { .unavailable }
    public static var dataLoss: Code { .dataLoss }
    public static var unauthenticated: Code { .unauthenticated }
}

extension FirestoreErrorCode.Code {
    /// `catch FirestoreErrorCode.notFound { … }` and `case FirestoreErrorCode.aborted:` match an
    /// error in `FirestoreErrorDomain` with that code, as with Firebase's bridged error.
    public static func ~= (code: Self, error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == FirestoreErrorDomain && error.code == code.rawValue
    }

    /// `switch error.code { case .notFound: … }` on a `FirestoreErrorCode`, whose `code` is
    /// NSError's `Int`.
    public static func ~= (code: Self, value: Int) -> Bool { value == code.rawValue }

    /// `error.code == .notFound` on a `FirestoreErrorCode`, whose `code` is NSError's `Int`.
    public static func == (value: Int, code: Self) -> Bool { value == code.rawValue }
    public static func == (code: Self, value: Int) -> Bool { value == code.rawValue }
    public static func != (value: Int, code: Self) -> Bool { value != code.rawValue }
    public static func == (value: Int?, code: Self) -> Bool { value == code.rawValue }
    public static func != (value: Int?, code: Self) -> Bool { value != code.rawValue }
}

/// What callers see of an error: the store's own errors as `FirestoreErrorCode`, the encoder's
/// and decoder's errors as they are (as with Firebase), anything else as `.unknown` with the
/// error under `NSUnderlyingErrorKey`, so that every error is an `NSError` a caller can catch.
package func publicError(_ error: Error) -> Error {
    switch error {
    case let error as FirestoreErrorCode: return error
    case let error as DocumentStoreError: return error.firestoreError
    case is EncodingError, is DecodingError, is FirestoreEncodingError, is FirestoreDecodingError: return error
    default:
        if type(of: error) is NSError.Type { return error }
        return FirestoreErrorCode(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)", NSUnderlyingErrorKey: error])
    }
}

import Foundation

/// The domain of every error the store reports, as Firebase's.
public let FirestoreErrorDomain = "FIRFirestoreErrorDomain"

/// The error the store throws and hands to completions and listeners, shaped as Firebase's
/// bridged `FirestoreErrorCode`: `error as? FirestoreErrorCode` and `.code == .notFound` work,
/// and `(error as NSError).code == FirestoreErrorCode.notFound.rawValue` in `FirestoreErrorDomain`.
/// The description names the document, the field, what was expected and what was found.
public struct FirestoreErrorCode: Error, CustomNSError, LocalizedError, CustomStringConvertible, Hashable, @unchecked Sendable {
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
    }

    public let code: Code
    public let errorUserInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.errorUserInfo = userInfo
    }

    init(_ code: Code, _ message: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    public static var errorDomain: String { FirestoreErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var description: String { errorUserInfo[NSLocalizedDescriptionKey] as? String ?? "Firestore error \(code)" }
    public var errorDescription: String? { description }

    public static func == (a: FirestoreErrorCode, b: FirestoreErrorCode) -> Bool {
        a.code == b.code && a.description == b.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(description)
    }

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
    /// `catch FirestoreErrorCode.notFound { … }` and `case FirestoreErrorCode.aborted:` match a
    /// thrown `FirestoreErrorCode` of that code, as with Firebase's bridged error.
    public static func ~= (code: FirestoreErrorCode.Code, error: any Error) -> Bool {
        (error as? FirestoreErrorCode)?.code == code
    }
}

/// What callers see of an error: the store's own errors as `FirestoreErrorCode`, and the
/// encoder's and decoder's errors as they are (as with Firebase).
func publicError(_ error: Error) -> Error {
    (error as? DocumentStoreError)?.firestoreError ?? error
}

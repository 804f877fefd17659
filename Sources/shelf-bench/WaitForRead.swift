import DocumentStore
import Foundation

/// A completion-handler read of a query, waited for on this thread (the store's callback queue
/// must not be this thread's).
func waitForRead(_ start: (@escaping (QuerySnapshot?, Error?) -> Void) -> Void) throws -> QuerySnapshot {
    let semaphore = DispatchSemaphore(value: 0)
    let result = Locked<Result<QuerySnapshot, Error>?>(nil)
    start { snapshot, error in
        result.withLock { $0 = snapshot.map { .success($0) } ?? .failure(error!) }
        semaphore.signal()
    }
    semaphore.wait()
    return try result.withLock { $0! }.get()
}

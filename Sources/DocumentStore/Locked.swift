import Foundation

/// A value guarded by a lock, for state shared between threads.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Carries a caller's callback across queues. The callback runs only on the queue the caller
/// chose (`FirestoreSettings.dispatchQueue`), as Firestore's callbacks do.
struct Callback<Function>: @unchecked Sendable {
    let function: Function
    init(_ function: Function) { self.function = function }
}

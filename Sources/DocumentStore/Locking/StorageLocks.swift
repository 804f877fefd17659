import Foundation

/// Locks that every process using the same storage sees (PostgreSQL's advisory locks), taken
/// by `TransactionLocks` once its own table, which answers for this process, has granted them:
/// so two `shelf serve`s, or two programs, on one database wait for each other's transactions
/// as two transactions of one process do. A folder has none: another process writing it is
/// caught by the commit's check of what a transaction read.
package protocol StorageLocks: AnyObject, Sendable {
    /// Takes `keys` for `owner`, blocking until they are granted, at most `wait`; throws
    /// `.aborted` when the storage gives up waiting ("Transaction lock timeout.") or finds a
    /// deadlock. Locks taken earlier for `owner` are kept until `release`.
    func lock(_ keys: [(TransactionLocks.Key, TransactionLocks.Mode)], for owner: Data, waitingAtMost wait: Duration) throws
    /// Lets go of everything `owner` holds, soon, without waiting for it: a release while
    /// `lock` still waits for `owner` takes effect when that call returns.
    func release(_ owner: Data)
}

/// One holder of locks: an attempt of a transaction, or a commit outside any. Older holders
/// (a smaller `age`) win (`TransactionLocks`); a transaction run again keeps its first age.
package struct LockOwner: Sendable, Hashable {
    package let id: Data
    package let age: UInt64

    package init(id: Data, age: UInt64) {
        self.id = id
        self.age = age
    }

    /// A new holder, younger than every one before it.
    package static func youngest() -> LockOwner {
        LockOwner(id: randomID(), age: TransactionLocks.newAge())
    }

    /// The same transaction's next attempt: a new id, the same age.
    package func retried() -> LockOwner {
        LockOwner(id: Self.randomID(), age: age)
    }

    /// 16 random bytes, as a server's transaction ids.
    package static func randomID() -> Data {
        Data((0..<16).map { _ in UInt8.random(in: 0...255) })
    }
}

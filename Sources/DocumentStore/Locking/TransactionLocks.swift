import Foundation

/// Firestore's pessimistic locks, one table per store, shared by everything that writes
/// through it: the Swift API's transactions and commits, and `shelf serve` serving the store.
/// A transaction's read of a document locks it until the transaction ends, so a second
/// transaction that reads it waits for the first to commit and then reads what it wrote,
/// instead of both reading the same value and one failing at commit (eight tasks incrementing
/// one counter lost attempts so). A query locks its collection (or collection group) against
/// new writes into it. Every commit, in a transaction or not, takes its documents' locks and
/// shares its collections' (`keys(writing:)`).
///
/// A lock let go goes to the oldest holder waiting for it, not to whichever looks first: a
/// younger one that took it would be wounded by the older at once, a wasted attempt.
///
/// Deadlocks are prevented as Firestore's wound-wait does: a holder that needs a lock held by
/// a younger one aborts the younger ("wounds" it: its locks go, its next call is `.aborted`);
/// one that needs a lock held by an older one waits, at most its wait, then is `.aborted`
/// ("Transaction lock timeout."). A transaction run again keeps its age (`LockOwner.retried`),
/// so it ends up the oldest and commits. A holder that is committing is never wounded.
///
/// The table answers for this process; the storage's own locks (`StorageLocks`, PostgreSQL's)
/// are then taken for other processes. Another program writing a folder takes none: a commit
/// still checks what its transaction read.
///
/// Waiting blocks the calling thread in `lock` (the Swift API's synchronous calls, made off
/// Swift's cooperative pool) and suspends in `lock(…) async` (the server's requests): the
/// table is a lock-guarded state machine, not an actor, so neither waits for the other's executor.
package final class TransactionLocks: Sendable {
    package enum Mode: Sendable { case shared, exclusive }

    /// What a lock stands for within a store: a document, a collection by path (`books`,
    /// `books/dune/reviews`), or every collection of an id ("" for every collection).
    package struct Key: Hashable, Comparable, Sendable {
        /// "d/books/dune", "c/books", "g/reviews": unique per lock, as a storage names it too.
        package let text: String
        package static func document(_ path: String) -> Key { Key(text: "d/" + path) }
        package static func collection(_ path: String) -> Key { Key(text: "c/" + path) }
        package static func group(_ id: String) -> Key { Key(text: "g/" + id) }
        package static func < (a: Key, b: Key) -> Bool { a.text < b.text }
    }

    /// The keys a commit writing the documents at `paths` ("books/dune") takes: each document
    /// exclusively, and, shared with other writes, its collection, its collection group and
    /// every collection, against a transaction's query of them.
    package static func keys(writing paths: [String]) -> [(Key, Mode)] {
        var keys: [Key: Mode] = [:]
        for path in paths {
            let collection = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
            keys[.document(path)] = .exclusive
            for key in [Key.collection(collection.joined(separator: "/")), .group(collection.last ?? ""), .group("")] where keys[key] == nil {
                keys[key] = .shared
            }
        }
        return keys.map { ($0.key, $0.value) }
    }

    /// Firestore's wait for a lock before the waiting transaction is aborted.
    package static let defaultWait: Duration = .seconds(5)
    /// The emulator's words for a lock waited for too long.
    package static let timeoutMessage = "Transaction lock timeout."
    package static let woundedMessage =
        "Aborted due to cross-transaction contention: an older transaction needed a document this one holds. The client's library runs it again."

    private static let lastAge = Locked<UInt64>(0)

    /// An age younger than every one given before, in this process (all tables compare them).
    package static func newAge() -> UInt64 {
        lastAge.withLock { age in
            age += 1
            return age
        }
    }

    /// The storage's locks for other processes, asked for when first needed (a store's
    /// backend may open at first use).
    private let storage: @Sendable () -> StorageLocks?
    private let state = Locked(LockTable())

    package init(storage: @escaping @Sendable () -> StorageLocks? = { nil }) {
        self.storage = storage
    }

    /// Takes the locks for `owner`, blocking the calling thread while it waits (at most
    /// `wait` in all). `committing`: these are its commit's, after which it is never wounded.
    /// Throws `.aborted` when `owner` was wounded or waited too long; its locks are gone then.
    /// `inStorage`: also in the storage's locks (PostgreSQL's), which other processes see; a
    /// write outside any transaction takes only this table's, so it needs no connection of its
    /// own beside the pool (another process's transaction that read its documents is then
    /// caught by that transaction's commit check, and runs again).
    package func lock(_ keys: [(Key, Mode)], for owner: LockOwner, committing: Bool = false, inStorage: Bool = true,
                      waitingAtMost wait: Duration = defaultWait) throws {
        let deadline = ContinuousClock.now.advanced(by: wait)
        for (key, mode) in Self.ordered(keys) {
            while true {
                let semaphore = DispatchSemaphore(value: 0)
                let step = take(key, mode, for: owner, until: deadline) { semaphore.signal() }
                switch step {
                case .granted: break
                case .failed(let error): throw error
                case .waiting(let waiter):
                    if semaphore.wait(timeout: .now() + Self.seconds(until: deadline)) == .timedOut { wake(waiter) }
                    continue
                }
                break
            }
        }
        try lockInStorage(keys, for: owner, committing: committing, inStorage: inStorage, until: deadline)
    }

    /// As `lock`, suspending instead of blocking while it waits.
    package func lock(_ keys: [(Key, Mode)], for owner: LockOwner, committing: Bool = false, inStorage: Bool = true,
                      waitingAtMost wait: Duration = defaultWait) async throws {
        let deadline = ContinuousClock.now.advanced(by: wait)
        for (key, mode) in Self.ordered(keys) {
            lookAgain: while true {
                switch await take(key, mode, for: owner, until: deadline) {
                case .granted?: break lookAgain
                case .failed(let error)?: throw error
                case .waiting?, nil: continue
                }
            }
        }
        guard inStorage, storage() != nil else { return try lockInStorage(keys, for: owner, committing: committing, inStorage: false, until: deadline) }
        try await onIOQueue { [self] in try lockInStorage(keys, for: owner, committing: committing, inStorage: true, until: deadline) }
    }

    /// How many calls wait for a lock now, so tests wait for a waiter rather than for a time.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// Lets go of every lock `owner` holds, here and in the storage, and forgets it.
    package func release(_ owner: Data) {
        let woken = state.withLock { table in
            table.wounded.remove(owner)
            return table.forget(owner)
        }
        for wake in woken { wake() }
        storage()?.release(owner)
    }

    // MARK: Steps

    private enum Step: Sendable {
        case granted
        case waiting(UInt64)
        case failed(FirestoreErrorCode)
    }

    /// One look at `key` under the table's lock: granted, or wounding younger holders and then
    /// waiting (`onRelease` is called once, when a lock goes or the wait ends), or failed.
    private func take(_ key: Key, _ mode: Mode, for owner: LockOwner, until deadline: ContinuousClock.Instant,
                      onRelease: @escaping @Sendable () -> Void) -> Step {
        var released: [Data] = []
        var woken: [@Sendable () -> Void] = []
        let step = state.withLock { table -> Step in
            if table.wounded.contains(owner.id) { return .failed(FirestoreErrorCode(.aborted, Self.woundedMessage)) }
            if table.owners[owner.id] == nil { table.owners[owner.id] = LockTable.Owner(age: owner.age) }
            for blocker in table.blockers(of: key, mode, for: owner.id) {
                if let other = table.owners[blocker], other.age > owner.age, !other.committing {
                    table.wounded.insert(blocker)
                    woken += table.forget(blocker, keepingOwner: true)
                    released.append(blocker)
                }
            }
            if table.blockers(of: key, mode, for: owner.id).isEmpty && !table.isOlderWaiting(for: key, mode, than: owner) {
                table.grant(key, mode, to: owner.id)
                return .granted
            }
            guard ContinuousClock.now < deadline else {
                woken += table.forget(owner.id)
                released.append(owner.id)
                return .failed(FirestoreErrorCode(.aborted, Self.timeoutMessage))
            }
            table.requests[owner.id] = LockTable.Request(key: key, mode: mode, age: owner.age)
            table.nextWaiter += 1
            table.waiters[table.nextWaiter] = onRelease
            return .waiting(table.nextWaiter)
        }
        for wake in woken { wake() }
        if !released.isEmpty, let storage = storage() { released.forEach(storage.release) }
        return step
    }

    /// One look at `key`, suspended while it waits: the step, or `nil` once woken (look again).
    /// The step is the continuation's result, not a variable the closure sets: Swift 6.3's
    /// optimizer crashed ("While splitting coroutine") on the latter in a release build.
    private func take(_ key: Key, _ mode: Mode, for owner: LockOwner, until deadline: ContinuousClock.Instant) async -> Step? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Step?, Never>) in
            let step = take(key, mode, for: owner, until: deadline) { continuation.resume(returning: nil) }
            guard case .waiting(let waiter) = step else { return continuation.resume(returning: step) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(until: deadline)) { [self] in wake(waiter) }
        }
    }

    /// Ends one wait (its time is up): its `onRelease` runs unless a release ran it already.
    private func wake(_ waiter: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: waiter) }?()
    }

    /// Once the table granted `keys`: marks a commit's owner, then takes the storage's locks
    /// (blocking), and lets go of everything if that fails or `owner` was wounded meanwhile.
    private func lockInStorage(_ keys: [(Key, Mode)], for owner: LockOwner, committing: Bool, inStorage: Bool, until deadline: ContinuousClock.Instant) throws {
        if committing { state.withLock { $0.owners[owner.id]?.committing = true } }
        guard inStorage, let storage = storage() else { return }
        do {
            try storage.lock(keys, for: owner.id, waitingAtMost: max(.milliseconds(1), deadline - ContinuousClock.now))
        } catch {
            release(owner.id)
            throw error
        }
        if state.withLock({ $0.wounded.contains(owner.id) }) {
            release(owner.id)
            throw FirestoreErrorCode(.aborted, Self.woundedMessage)
        }
    }

    /// One order for every holder's keys, so two never take the same two in turn.
    private static func ordered(_ keys: [(Key, Mode)]) -> [(Key, Mode)] {
        keys.sorted { $0.0 < $1.0 }
    }

    private static func seconds(until deadline: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (deadline - ContinuousClock.now).components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// The table's state: who holds what, who was wounded, who waits.
private struct LockTable {
    struct Owner {
        let age: UInt64
        var held: [TransactionLocks.Key: TransactionLocks.Mode] = [:]
        var committing = false
    }

    var owners: [Data: Owner] = [:]
    var holders: [TransactionLocks.Key: [Data: TransactionLocks.Mode]] = [:]
    /// Holders aborted by an older one, told so at their next call.
    var wounded: Set<Data> = []
    var waiters: [UInt64: @Sendable () -> Void] = [:]
    var nextWaiter: UInt64 = 0
    /// What each waiting holder waits for, so that a lock let go goes to the oldest of them.
    var requests: [Data: Request] = [:]

    struct Request {
        let key: TransactionLocks.Key
        let mode: TransactionLocks.Mode
        let age: UInt64
    }

    /// Whether a holder older than `owner` waits for `key` in a mode that excludes `mode`.
    func isOlderWaiting(for key: TransactionLocks.Key, _ mode: TransactionLocks.Mode, than owner: LockOwner) -> Bool {
        requests.contains { waiting, request in
            waiting != owner.id && request.key == key && request.age < owner.age && (request.mode == .exclusive || mode == .exclusive)
        }
    }

    /// The other holders of `key` that `mode` must wait for.
    func blockers(of key: TransactionLocks.Key, _ mode: TransactionLocks.Mode, for owner: Data) -> [Data] {
        (holders[key] ?? [:]).compactMap { holder, held in holder != owner && (held == .exclusive || mode == .exclusive) ? holder : nil }
    }

    mutating func grant(_ key: TransactionLocks.Key, _ mode: TransactionLocks.Mode, to owner: Data) {
        let held = owners[owner]!.held[key]
        let kept: TransactionLocks.Mode = mode == .exclusive || held == .exclusive ? .exclusive : .shared
        owners[owner]!.held[key] = kept
        holders[key, default: [:]][owner] = kept
        requests[owner] = nil
    }

    /// Takes `owner`'s locks away (and the owner, unless `keepingOwner`: a wounded one stays
    /// known until it is released); returns the waiters to wake, each to look again.
    mutating func forget(_ owner: Data, keepingOwner: Bool = false) -> [@Sendable () -> Void] {
        requests[owner] = nil
        guard let gone = owners[owner] else { return [] }
        if keepingOwner { owners[owner]?.held = [:] } else { owners[owner] = nil }
        for key in gone.held.keys {
            holders[key]?.removeValue(forKey: owner)
            if holders[key]?.isEmpty == true { holders[key] = nil }
        }
        let woken = Array(waiters.values)
        waiters = [:]
        return woken
    }
}

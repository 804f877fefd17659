import FirestoreWire
import Foundation

/// Firestore's pessimistic locks, for the transactions of one server: a transaction's read of
/// a document locks it until the transaction ends, so a second transaction that reads it
/// waits for the first to commit and then reads what it wrote, instead of both reading the
/// same value and one being aborted at commit (six clients incrementing one counter lost a
/// twentieth of their increments so). A query locks its collection (or collection group)
/// against new writes into it, so a document cannot enter what a transaction's query matched
/// before it commits. Every write through the server, in a transaction or not, takes its
/// documents' locks and shares its collection's.
///
/// Deadlocks are prevented as Firestore's wound-wait does: a transaction that needs a lock
/// held by a younger one aborts the younger ("wounds" it: its locks go, its next call is
/// `ABORTED`); one that needs a lock held by an older one waits, at most `wait`, then is
/// `ABORTED`. A retried transaction keeps the age of the one it retries
/// (`retry_transaction`), so it ends up the oldest and commits. A transaction that is
/// committing is never wounded: the older one waits for it.
///
/// Within this server only: another program writing the same folder or database takes none
/// of these locks, and a commit still checks what its transaction read (`Firestore.commit`).
actor TransactionLocks {
    enum Mode { case shared, exclusive }

    /// What a lock stands for, within one database: a document, a collection by path
    /// (`books`, `books/dune/reviews`), or every collection of an id.
    struct Key: Hashable, Comparable {
        private let text: String
        static func document(_ path: String) -> Key { Key(text: "d/" + path) }
        static func collection(_ path: String) -> Key { Key(text: "c/" + path) }
        static func group(_ id: String) -> Key { Key(text: "g/" + id) }
        static func < (a: Key, b: Key) -> Bool { a.text < b.text }
    }

    /// How long a lock is waited for before the waiting transaction is aborted.
    let wait: Duration

    init(wait: Duration = .seconds(5)) {
        self.wait = wait
    }

    private struct Owner {
        let age: UInt64
        var held: [LockName: Mode] = [:]
        var committing = false
    }

    private struct LockName: Hashable {
        let database: String
        let key: Key
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, Never>
    }

    private var owners: [Data: Owner] = [:]
    private var holders: [LockName: [Data: Mode]] = [:]
    /// Transactions aborted by an older one, told so at their next call.
    private var wounded: Set<Data> = []
    private var waiters: [Waiter] = []
    private var nextWaiter: UInt64 = 0

    /// Takes the locks, in one order (waiting or wounding as the type says), for `owner`,
    /// first known with `age`. `committing`: these are its commit's, after which it is never
    /// wounded. Throws `ABORTED` when `owner` was wounded or waited too long.
    func lock(_ keys: [(Key, Mode)], database: String, for owner: Data, age: UInt64, committing: Bool = false) async throws(WireError) {
        if owners[owner] == nil { owners[owner] = Owner(age: age) }
        let deadline = ContinuousClock.now.advanced(by: wait)
        for (key, mode) in keys.sorted(by: { $0.0 < $1.0 }) {
            let name = LockName(database: database, key: key)
            while true {
                try checkNotWounded(owner)
                let blockers = (holders[name] ?? [:]).filter { $0.key != owner && ($0.value == .exclusive || mode == .exclusive) }
                if blockers.isEmpty { break }
                let myAge = owners[owner]!.age
                for (blocker, _) in blockers {
                    if let other = owners[blocker], other.age > myAge, !other.committing { wound(blocker) }
                }
                if (holders[name] ?? [:]).contains(where: { $0.key != owner && ($0.value == .exclusive || mode == .exclusive) }) {
                    guard ContinuousClock.now < deadline else {
                        release(owner)
                        throw .aborted("Transaction lock timeout.")
                    }
                    await waitForRelease(until: deadline)
                }
            }
            let held = owners[owner]!.held[name]
            if held != .exclusive { owners[owner]!.held[name] = mode == .exclusive ? .exclusive : (held ?? .shared) }
            holders[name, default: [:]][owner] = owners[owner]!.held[name]
        }
        if committing { owners[owner]?.committing = true }
    }

    /// Whether `owner` may go on: throws `ABORTED` if an older transaction wounded it.
    func checkNotWounded(_ owner: Data) throws(WireError) {
        guard wounded.contains(owner) else { return }
        throw Self.woundedError
    }

    /// Lets go of every lock `owner` holds, and forgets it.
    func release(_ owner: Data) {
        wounded.remove(owner)
        guard let gone = owners.removeValue(forKey: owner) else { return }
        for name in gone.held.keys {
            holders[name]?.removeValue(forKey: owner)
            if holders[name]?.isEmpty == true { holders[name] = nil }
        }
        wakeWaiters()
    }

    static let woundedError = WireError.aborted(
        "Aborted due to cross-transaction contention: an older transaction needed a document this one holds. The client's library runs it again.")

    private func wound(_ owner: Data) {
        guard let gone = owners[owner] else { return }
        wounded.insert(owner)
        owners[owner]?.held = [:]
        for name in gone.held.keys {
            holders[name]?.removeValue(forKey: owner)
            if holders[name]?.isEmpty == true { holders[name] = nil }
        }
        wakeWaiters()
    }

    private func waitForRelease(until deadline: ContinuousClock.Instant) async {
        nextWaiter += 1
        let id = nextWaiter
        await withCheckedContinuation { continuation in
            waiters.append(Waiter(id: id, continuation: continuation))
            Task { [weak self] in
                try? await Task.sleep(until: deadline)
                await self?.wake(id)
            }
        }
    }

    private func wake(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    private func wakeWaiters() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.continuation.resume() }
    }
}

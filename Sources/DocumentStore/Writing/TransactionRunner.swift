import Foundation

/// Runs a transaction as Firestore's SDK does: the block, then the commit, again and again
/// while the failure may pass next time, each attempt holding its locks (`TransactionLocks`)
/// until it ends, the attempts keeping one age so the transaction wins in the end. Apart from
/// `Firestore`, whose `runTransaction` forms only say where the block runs and where its
/// outcome goes.
struct TransactionRunner {
    let store: Firestore
    /// How many times the block may run (`TransactionOptions.maxAttempts`).
    let maxAttempts: Int

    init(store: Firestore, options: TransactionOptions?) {
        self.store = store
        maxAttempts = options?.maxAttempts ?? TransactionOptions.defaultMaxAttempts
    }

    /// Runs the attempts on a background queue and gives their outcome to `completion` on the
    /// store's callback queue.
    func start(_ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?, completion: @escaping (Any?, Error?) -> Void) {
        let block = Callback(updateBlock)
        let callback = Callback(completion)
        let runner = Callback(self)
        DispatchQueue.global().async {
            let result = Callback(Result { try runner.function.attempts(block.function) })
            runner.function.store.callbackQueue.async {
                switch result.function {
                case .success(let value): callback.function(value, nil)
                case .failure(let error): callback.function(nil, error)
                }
            }
        }
    }

    /// The attempts, awaited off the caller's thread.
    nonisolated(nonsending) func run(_ updateBlock: @escaping (Transaction, NSErrorPointer) -> Any?) async throws -> Any? {
        let block = Callback(updateBlock)
        let runner = Callback(self)
        return try await onIOQueue { Callback(try runner.function.attempts(block.function)) }.function
    }

    /// The attempts of a throwing body, on the calling thread: the body's own error ends the
    /// transaction and comes back as it was thrown; the store's may pass on another attempt.
    func runNow<T>(_ body: (Transaction) throws -> T) throws -> T {
        var outcome: Result<T, Error>?
        do {
            _ = try attempts { transaction, errorPointer in
                outcome = Result { try body(transaction) }
                // The store's own errors may pass on another attempt; the body's own stop the transaction.
                if case .failure(let error)? = outcome {
                    errorPointer?.pointee = (error as? FirestoreErrorCode) ?? NSError(domain: "DocumentStore.runTransactionNow", code: 0)
                }
                return nil
            }
        } catch {
            // The block's own error goes back as it was thrown, not as the NSError that stopped the attempts.
            if case .failure(let blockError)? = outcome { throw blockError }
            throw error
        }
        guard let outcome else { throw DocumentStoreError.invalidCall("the transaction's block never ran").firestoreError }
        return try outcome.get()
    }

    /// The attempts, on the calling thread, as Firestore's SDK makes them: an error the block
    /// sets in another domain than Firestore's ends the transaction at once; one of Firestore's
    /// (from the block or the commit) runs the block again if it may pass next time, until
    /// `maxAttempts`; the last error is the transaction's.
    func attempts(_ updateBlock: (Transaction, NSErrorPointer) -> Any?) throws -> Any? {
        guard maxAttempts >= 1 else {
            throw DocumentStoreError.invalidCall("TransactionOptions.maxAttempts must be at least 1, got \(maxAttempts)").firestoreError
        }
        var owner = LockOwner.youngest()
        var attempt = 0
        while true {
            attempt += 1
            let transaction = Transaction(firestore: store, owner: owner)
            defer { store.transactionLocks.release(transaction.owner.id) }
            var blockError: NSError?
            let value = withUnsafeMutablePointer(to: &blockError) { updateBlock(transaction, $0) }
            let failure: Error
            if let blockError {
                guard blockError.domain == FirestoreErrorDomain else { throw blockError }
                failure = blockError
            } else {
                do {
                    try transaction.commit()
                    return value
                } catch {
                    failure = error
                }
            }
            guard attempt < maxAttempts, Self.isRetryable(failure) else { throw failure }
            owner = owner.retried()  // the next attempt keeps the age, so it wins in the end
            TransactionBackoff.wait(after: attempt)
        }
    }

    /// Firestore's SDK's rule: a stale read (`failedPrecondition`), contention (`aborted`), a
    /// create that lost (`alreadyExists`) and transient errors may pass when run again.
    static func isRetryable(_ error: Error) -> Bool {
        let error = error as NSError
        guard error.domain == FirestoreErrorDomain, let code = FirestoreErrorCode.Code(rawValue: error.code) else { return false }
        switch code {
        case .aborted, .alreadyExists, .failedPrecondition,
             .cancelled, .unknown, .deadlineExceeded, .resourceExhausted, .internal, .unavailable, .unauthenticated:
            return true
        case .OK, .invalidArgument, .notFound, .permissionDenied, .outOfRange, .unimplemented, .dataLoss:
            return false
        }
    }
}

/// How long a transaction whose reads went stale waits before running again: a random time
/// (full jitter) up to `2^attempt` commit times, so contenders for one document spread out
/// and take turns instead of colliding again. Firestore's client waits 1 s, then 1.5 s, ...;
/// here the unit is what a commit costs on this machine (a moving average, 0.5 ms at least),
/// because a local commit takes milliseconds, not a network round trip.
enum TransactionBackoff {
    private static let commitSeconds = Locked(0.002)

    static func record(commit duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let measured = Double(seconds) + Double(attoseconds) / 1e18
        commitSeconds.withLock { $0 = $0 * 0.8 + measured * 0.2 }
    }

    static func wait(after attempt: Int) {
        let unit = max(commitSeconds.withLock { $0 }, 0.000_5)
        let limit = min(unit * Double(1 << min(attempt, 8)), 1.0)
        usleep(UInt32(Double.random(in: 0...limit) * 1e6))
    }
}

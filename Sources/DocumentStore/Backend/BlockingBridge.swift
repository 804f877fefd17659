import Dispatch
import Foundation

/// The one place where the store's synchronous API (Firebase's, whose callers block until an
/// answer comes) meets async code (PostgresNIO, gRPC). The async work runs on threads of its own
/// (`executor`), never on Swift's few cooperative threads nor on Dispatch's global ones: a caller
/// blocking one of those (an async test, a server's handler, `onIOQueue`) must not keep its
/// answer from coming, and Dispatch adds no thread to its global pool while its threads block.
package enum BlockingBridge {
    /// Where the bridged async work runs. Nothing run there blocks (it awaits), so a few threads
    /// serve every store of the process.
    package static let executor = ThreadsExecutor(name: "StoreBridge", count: 2)

    /// Async work that did not end within the time it was given (it is cancelled).
    package struct TimedOut: Error {
        package let after: Duration
    }

    /// Runs `work` on the bridge's threads and blocks the calling thread until it ends, or until
    /// `timeout` has passed: the work is then cancelled and `TimedOut` thrown.
    package static func call<T: Sendable>(timeout: Duration? = nil, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        if let timeout {
            guard done.wait(timeout: .after(timeout)) == .success else {
                task.cancel()
                throw TimedOut(after: timeout)
            }
        } else {
            done.wait()
        }
        return try outcome.withLock { $0! }.get()
    }

    /// Starts long-lived async work (a client's background loop, a stream) on the bridge's
    /// threads; no caller waits for it.
    @discardableResult
    package static func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor, operation: work)
    }

    /// Runs `body` on the calling thread with a resource that async code lends only for the
    /// length of a closure (a pool's `withConnection`): `lend` runs on the bridge's threads and
    /// gets the resource back when `body` returns. Running `body` on the caller's own thread
    /// keeps what it knows of that thread (a read's cancellation). `patience` is how long the
    /// caller waits before `stillWaiting` is asked whether to go on (nil) or give up (an error).
    package static func lease<Resource: Sendable, T>(
        _ lend: @escaping @Sendable (_ use: @escaping @Sendable (Resource) async -> Void) async throws -> Void,
        patience: Duration? = nil, stillWaiting: () -> (any Error)? = { nil },
        _ body: (Resource) throws -> T) throws -> T {
        let handoff = Handoff<Resource>()
        let task = Task(executorPreference: executor) {
            do {
                try await lend { resource in await handoff.lend(resource) }
                handoff.ended(with: nil)
            } catch {
                handoff.ended(with: error)
            }
        }
        let resource: Resource
        do {
            resource = try handoff.waitForResource(patience: patience, stillWaiting: stillWaiting)
        } catch {
            handoff.giveBack()  // a resource lent after all goes straight back
            task.cancel()
            throw error
        }
        defer { handoff.giveBack() }
        return try body(resource)
    }
}

/// A resource passed from the async code that lends it to the thread that uses it, and back.
private final class Handoff<Resource: Sendable>: @unchecked Sendable {
    private struct State {
        var resource: Resource?
        var failure: (any Error)?
        var isEnded = false
        var isGivenBack = false
        var returned: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())
    private let arrived = DispatchSemaphore(value: 0)

    /// The lender's side: hands `resource` over, and waits for it to come back.
    func lend(_ resource: Resource) async {
        state.withLock { $0.resource = resource }
        arrived.signal()
        await withCheckedContinuation { continuation in
            let givenBack = state.withLock { state in
                if !state.isGivenBack { state.returned = continuation }
                return state.isGivenBack
            }
            if givenBack { continuation.resume() }
        }
    }

    /// The lender is done, having lent or failed.
    func ended(with error: (any Error)?) {
        let wake = state.withLock { state in
            defer { state.isEnded = true }
            if state.resource == nil { state.failure = error ?? BlockingBridge.NothingLent() }
            return state.resource == nil
        }
        if wake { arrived.signal() }
    }

    func waitForResource(patience: Duration?, stillWaiting: () -> (any Error)?) throws -> Resource {
        while true {
            if let patience {
                if arrived.wait(timeout: .after(patience)) == .timedOut {
                    if let error = stillWaiting() { throw error }
                    continue
                }
            } else {
                arrived.wait()
            }
            return try state.withLock { state in
                if let resource = state.resource { return resource }
                throw state.failure ?? BlockingBridge.NothingLent()
            }
        }
    }

    func giveBack() {
        let continuation = state.withLock { state in
            state.isGivenBack = true
            defer { state.returned = nil }
            return state.returned
        }
        continuation?.resume()
    }
}

extension BlockingBridge {
    /// The lender returned without lending anything.
    package struct NothingLent: Error {}
}

extension DispatchTime {
    /// `duration` from now (at most a century: never an overflow).
    static func after(_ duration: Duration) -> DispatchTime {
        .now() + .nanoseconds(Int(min(max(0, duration / .nanoseconds(1)), 3e18)))
    }
}

/// A `TaskExecutor` with threads of its own, which no other code can block: jobs wait in one
/// queue, and whichever thread is free runs the next.
package final class ThreadsExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = NSCondition()
    private var waiting: [UnownedJob] = []
    private var next = 0

    /// `name` names the threads (`name-1`…, for debuggers; Linux keeps 15 characters).
    package init(name: String, count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.runJobs() }
            thread.name = "\(name)-\(index + 1)"
            thread.start()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.lock()
        waiting.append(job)
        jobs.signal()
        jobs.unlock()
    }

    /// Whether the calling thread is one of this executor's.
    package var isCurrentThread: Bool {
        Thread.current.threadDictionary[Self.marker] as? ObjectIdentifier == ObjectIdentifier(self)
    }
    private static let marker = "ThreadsExecutor"

    /// A thread's life: the executor lives as long as the process (it is a static's).
    private func runJobs() -> Never {
        Thread.current.threadDictionary[Self.marker] = ObjectIdentifier(self)
        while true {
            jobs.lock()
            while next == waiting.count { jobs.wait() }
            let job = waiting[next]
            next += 1
            if next == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                next = 0
            }
            jobs.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

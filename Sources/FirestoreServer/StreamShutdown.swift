import DocumentStore
import GRPCCore

/// Ends the long-lived streams (Listen, Write) when the server stops. A graceful shutdown waits
/// for every call to end, and these end only when their client leaves: without this, a client
/// listening would keep `shelf serve` from stopping. A stream ended so is told `UNAVAILABLE`,
/// which clients answer by connecting again.
final class StreamShutdown: Sendable {
    private struct State {
        var stopping = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    /// Ends every stream running under `serve`, and those that start later at once.
    func begin() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopping = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs a stream's `body` until it ends, or until the server stops: then `body` is
    /// cancelled and the stream ends with `UNAVAILABLE`.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let ended = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await body(); return false }
            group.addTask { await self.stopped(); return true }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        if ended { throw RPCError(code: .unavailable, message: "shelf serve is stopping; connect again when it is back") }
    }

    /// Returns once the server stops, or when the calling task is cancelled.
    private func stopped() async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.stopping || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

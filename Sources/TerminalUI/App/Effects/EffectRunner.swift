import Dispatch
import Foundation

/// Runs the effects the model asks for and hands each result back on the main thread, in the
/// order the effects were started; an effect that is an async call of a main-actor view model
/// (`Effect.mainActorCall`) is awaited on the main actor. The app's runs them on a background
/// queue (`BackgroundEffects`); a test's may run them when the test says.
@MainActor
protocol EffectRunner: AnyObject {
    func run(_ effect: Effect, then deliver: @escaping @MainActor (EffectResult) -> Void)
    /// Waits up to `timeout` for the effects started to finish, and delivers the results of
    /// those that did before returning; returns whether none is still running. For quitting.
    func finish(within timeout: DispatchTimeInterval) -> Bool
}

/// The app's runner: one serial queue for the store, so writes land in the order they were
/// asked for and a save's reads around its write see no later write of Shelf's, and one beside
/// it for the looks at the collections (`Effect.runsBesideWrites`), which neither wait for a
/// write nor hold one up; results come back through the main queue. The main thread never
/// waits for the disk or the server, except `finish(within:)` when quitting.
final class BackgroundEffects: EffectRunner {
    private let queue = DispatchQueue(label: "shelf.effects", qos: .userInitiated)
    private let besideWrites = DispatchQueue(label: "shelf.effects.looks", qos: .utility)
    /// Results not yet delivered, oldest first; the main queue's block for each delivers
    /// whatever is here by then, and `finish(within:)` delivers them at once.
    private let finished = Mailbox()
    private var running = 0

    init() {}

    func run(_ effect: Effect, then deliver: @escaping @MainActor (EffectResult) -> Void) {
        if let call = effect.mainActorCall {
            Task { deliver(await call()) }
            return
        }
        running += 1
        let finished = finished
        let target = Target(deliver: deliver)
        (effect.runsBesideWrites ? besideWrites : queue).async { [weak self] in
            finished.post(Delivery(result: effect.perform(), target: target))
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.deliverFinished() } }
        }
    }

    func finish(within timeout: DispatchTimeInterval) -> Bool {
        guard running > 0 else { return true }
        let drained = DispatchGroup()
        for queue in [queue, besideWrites] { queue.async(group: drained) {} }
        _ = drained.wait(timeout: .now() + timeout)
        deliverFinished()
        return running == 0
    }

    private func deliverFinished() {
        for delivery in finished.takeAll() {
            running -= 1
            delivery.target.deliver(delivery.result)
        }
    }

    /// Where a result goes: carried through the queue, called on the main thread only.
    private struct Target: @unchecked Sendable {
        let deliver: @MainActor (EffectResult) -> Void
    }

    private struct Delivery: Sendable {
        let result: EffectResult
        let target: Target
    }

    private final class Mailbox: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var deliveries: [Delivery] = []
        func post(_ delivery: Delivery) { lock.withLock { deliveries.append(delivery) } }
        func takeAll() -> [Delivery] { lock.withLock { defer { deliveries = [] }; return deliveries } }
    }
}

import Dispatch
@testable import TerminalUI

/// Runs each effect at once, on the caller's thread, and delivers its result before `run`
/// returns: a key's write is done when `handle` returns, for the tests of what a write does
/// (not of when). The guide's async fetch (`Effect.mainActorCall`) is a task `calls()` awaits.
@MainActor
final class SynchronousEffects: EffectRunner {
    private var calls: [Task<Void, Never>] = []

    func run(_ effect: Effect, then deliver: @escaping @MainActor (EffectResult) -> Void) {
        guard let call = effect.mainActorCall else { return deliver(effect.perform()) }
        calls.append(Task { deliver(await call()) })
    }

    func finish(within timeout: DispatchTimeInterval) -> Bool { true }

    /// Waits for the async calls started so far, their results delivered.
    func finishCalls() async {
        while !calls.isEmpty { await calls.removeFirst().value }
    }
}

/// Keeps each effect until the test says: `complete()` performs the oldest and delivers its
/// result, `fail(with:)` delivers a failure without performing it. So a test holds a write in
/// flight for as long as it likes, with no timing involved.
@MainActor
final class ManualEffects: EffectRunner {
    private(set) var pending: [(effect: Effect, deliver: @MainActor (EffectResult) -> Void)] = []

    /// The documents of the writes waiting, oldest first.
    var pendingPaths: [String] {
        pending.map { entry in
            switch entry.effect {
            case .write(let write): write.reference.path
            case .readTimes(let snapshot): "times of \(snapshot.reference.path)"
            case .listCollections(let reference): "collections of \(reference.path)"
            case .listStoreCollections: "the store's collections"
            case .sizeCollection(_, let path, _): "size of \(path)"
            case .lookUp(_, let id): "the guide's fetch of books/\(id)"
            }
        }
    }

    func run(_ effect: Effect, then deliver: @escaping @MainActor (EffectResult) -> Void) { pending.append((effect, deliver)) }

    /// Performs every effect when quitting: the app waits for them.
    func finish(within timeout: DispatchTimeInterval) -> Bool {
        while !pending.isEmpty { complete() }
        return true
    }

    func complete() {
        let (effect, deliver) = pending.removeFirst()
        deliver(effect.perform())
    }

    /// `complete()` for the guide's async fetch (`Effect.mainActorCall`): awaits it, then
    /// delivers its result.
    func completeCall() async {
        let (effect, deliver) = pending.removeFirst()
        guard let call = effect.mainActorCall else { return deliver(effect.perform()) }
        deliver(await call())
    }

    /// Completes the listing of the store's collections that every app starts with, for the
    /// tests about the effects that come after it.
    func completeStartListing() {
        guard case .listStoreCollections = pending.first?.effect else { preconditionFailure("no listing at start: \(pendingPaths)") }
        complete()
    }

    func fail(with error: any Error) {
        let (_, deliver) = pending.removeFirst()
        deliver(.written(.failure(error)))
    }
}

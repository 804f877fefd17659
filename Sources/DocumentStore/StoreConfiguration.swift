import Foundation

/// What a store's user set on it and what it belongs to, under one lock apart from the API:
/// the settings, where the plain write forms' errors go, whether listeners are shown pending
/// writes, and the app. Read on every callback and every commit, so never copied needlessly.
final class StoreConfiguration: @unchecked Sendable {
    private struct State {
        var settings: FirestoreSettings
        var writeErrorHandler: (@Sendable (Error) -> Void)?
        var showsPendingWrites = true
        /// The store's own app, the one it was opened for, or the default app (`configure`).
        var app: FirebaseApp
    }

    private let state: Locked<State>

    init(settings: FirestoreSettings, app: FirebaseApp) {
        state = Locked(State(settings: settings.copy() as! FirestoreSettings, app: app))
    }

    /// A copy each way, as Firebase's settings are: a change counts once assigned back.
    var settings: FirestoreSettings {
        get { state.withLock { $0.settings.copy() as! FirestoreSettings } }
        set {
            let settings = newValue.copy() as! FirestoreSettings
            state.withLock { $0.settings = settings }
        }
    }

    /// The settings' `dispatchQueue`, without copying the settings.
    var callbackQueue: DispatchQueue { state.withLock { $0.settings.dispatchQueue } }
    var pollingInterval: TimeInterval { state.withLock { $0.settings.pollingInterval } }

    var writeErrorHandler: (@Sendable (Error) -> Void)? {
        get { state.withLock { $0.writeErrorHandler } }
        set { state.withLock { $0.writeErrorHandler = newValue } }
    }

    var showsPendingWrites: Bool {
        get { state.withLock { $0.showsPendingWrites } }
        set { state.withLock { $0.showsPendingWrites = newValue } }
    }

    var app: FirebaseApp {
        get { state.withLock { $0.app } }
        set { state.withLock { $0.app = newValue } }
    }

    /// Gives the error of a write that cannot throw to the handler, on the callback queue, or
    /// to standard error when there is none, so no write fails silently.
    func reportWriteError(_ error: Error, path: String) {
        guard let handler = writeErrorHandler else {
            return Self.complain("a write to \(path) failed: \(error.localizedDescription)")
        }
        let box = Callback(error)
        callbackQueue.async { handler(box.function) }
    }

    /// Reports a call the store refuses without a way to throw, as Firebase's log does.
    static func complain(_ message: String) {
        FileHandle.standardError.write(Data("DocumentStore: \(message)\n".utf8))
    }
}

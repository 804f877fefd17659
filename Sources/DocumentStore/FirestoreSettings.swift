import Foundation

/// Settings of a store, as Firestore's `FirestoreSettings`.
public struct FirestoreSettings: Sendable {
    /// Where completions and listeners run: the main queue by default. Use a serial queue, so
    /// snapshots arrive in order.
    public var dispatchQueue: DispatchQueue = .main
    /// How often listeners look at the files, in seconds (ours: Firestore is pushed, files are polled).
    public var pollingInterval: TimeInterval = 0.25

    public init() {}
}

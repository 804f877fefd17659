import DocumentStore
import Foundation
import PostgresNIO

/// Every client's commits, as the paths they wrote: one connection LISTENing on
/// `PostgresSchema.channel` for all of a store's listeners, started by the first. When that
/// connection drops it connects again (every 100 ms until it can) and, once listening, tells
/// each observer that anything may have changed, so they read again what they follow.
final class PostgresChanges: @unchecked Sendable {
    private let address: PostgresAddress
    private let logger: Logger
    /// Names this store's commits in their notifications.
    let writer = UUID().uuidString
    private let lock = NSLock()
    private var observers: [Int: @Sendable ([String]?) -> Void] = [:]  // under `lock`
    private var nextID = 0
    private var task: Task<Void, Never>?
    private var isStopped = false
    /// True while the connection LISTENs (under `listening`'s lock).
    private var isListening = false
    private let listening = NSCondition()

    init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
    }

    func observe(_ changed: @escaping @Sendable ([String]?) -> Void) -> ServerObservation {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        observers[nextID] = changed
        if task == nil && !isStopped {
            task = BlockingBridge.start { [weak self] in await self?.listen() }
        }
        return Observation(changes: self, id: nextID)
    }

    private func remove(_ id: Int) {
        lock.lock()
        observers[id] = nil
        lock.unlock()
    }

    func stop() {
        lock.lock()
        isStopped = true
        let task = task
        observers = [:]
        lock.unlock()
        task?.cancel()
    }

    private func tell(_ paths: [String]?) {
        lock.lock()
        let observers = Array(observers.values)
        lock.unlock()
        for observer in observers { observer(paths) }
    }

    /// Listens until stopped, connecting again whenever the connection is lost.
    private func listen() async {
        while !Task.isCancelled {
            if let connection = try? await PostgresConnection.connect(configuration: address.configuration, id: 0, logger: logger) {
                try? await withTaskCancellationHandler {
                    try await connection.listen(on: PostgresSchema.channel) { notifications in
                        tell(nil)  // listening now: whatever happened before is read again
                        setListening(true)
                        for try await notification in notifications {
                            guard let (writer, paths) = Self.parse(notification.payload) else {
                                tell(nil)
                                continue
                            }
                            // This store's own commits are told to its listeners as they return.
                            if writer != self.writer { tell(paths) }
                        }
                    }
                } onCancel: {
                    connection.close().whenComplete { _ in }
                }
                setListening(false)
                try? await connection.close()  // PostgresNIO wants every connection closed
            }
            // Connection lost or refused: try again shortly.
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    private func setListening(_ value: Bool) {
        listening.lock()
        isListening = value
        listening.broadcast()
        listening.unlock()
    }

    /// Waits until the connection LISTENs (and its "read again" has been told), or `timeout`.
    func waitUntilListening(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        listening.lock()
        defer { listening.unlock() }
        while !isListening {
            if !listening.wait(until: deadline) { break }
        }
        return isListening
    }

    /// A notification's payload: `{"writer": id, "paths": [...]}` (or `{"paths": [...]}` from
    /// the trigger); nil for anything else, which means "anything may have changed".
    static func payload(writer: String, paths: [String]) -> String {
        let object: [String: Any] = ["writer": writer, "paths": paths]
        guard let data = try? JSONSerialization.data(withJSONObject: object), data.count <= PostgresSchema.maximumPayload else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    static func parse(_ payload: String) -> (writer: String?, paths: [String])? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any],
              let paths = object["paths"] as? [String] else { return nil }
        return (object["writer"] as? String, paths)
    }

    private final class Observation: ServerObservation, @unchecked Sendable {
        weak var changes: PostgresChanges?
        let id: Int

        init(changes: PostgresChanges, id: Int) {
            self.changes = changes
            self.id = id
        }

        func cancel() { changes?.remove(id) }

        func waitUntilListening(timeout: TimeInterval) -> Bool {
            changes?.waitUntilListening(timeout: timeout) ?? false
        }
    }
}

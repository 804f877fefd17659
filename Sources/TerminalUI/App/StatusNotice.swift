import DocumentStore
import Foundation
import Observation

/// The status line's one-off message, observable so that a message arriving between keys (a
/// plain-form write that failed, reported by the store) is drawn at once; and the last
/// messages shown, whole, for the message log (`m`), as the line may have cut them.
@Observable @MainActor
final class StatusNotice {
    struct Message {
        let time: Date
        let text: String
    }

    private(set) var text: String?
    /// The last `historyLimit` messages shown, oldest first.
    private(set) var history: [Message] = []
    static let historyLimit = 50

    init(_ text: String? = nil) { self.text = text }

    /// Setting the same text again is not a change, so clearing an empty line costs no frame.
    func set(_ newText: String?) {
        guard text != newText else { return }
        text = newText
        if let newText {
            history.append(Message(time: Date(), text: newText))
            if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        }
    }

    /// Makes `store`'s plain-form write errors (`ref.setData(data)` and the like, which cannot
    /// throw) appear here instead of on standard error, where the terminal UI would hide them.
    func reportWriteErrors(of store: Firestore) {
        store.writeErrorHandler = { [weak self] error in
            let message = "Write failed: \(error)"
            if Thread.isMainThread {
                MainActor.assumeIsolated { self?.set(message) }
            } else {
                DispatchQueue.main.async { MainActor.assumeIsolated { self?.set(message) } }
            }
        }
    }
}

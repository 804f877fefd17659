import DocumentStore
import Foundation
import Observation

/// The status line's one-off message, observable so that a message arriving between keys (a
/// plain-form write that failed, reported by the store) is drawn at once.
@Observable @MainActor
final class StatusNotice {
    private(set) var text: String?

    init(_ text: String? = nil) { self.text = text }

    /// Setting the same text again is not a change, so clearing an empty line costs no frame.
    func set(_ newText: String?) {
        if text != newText { text = newText }
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

import DocumentStore
import Observation

/// The guide's "Colors" screen: a live list of named colours, and a new colour to add.
@Observable @MainActor
public final class MappingColorsViewModel {
    public let live: LiveCollection<ColorEntry>
    public var newColor = ColorEntry.empty

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("colors"))
    }

    public var colorEntries: [ColorEntry] { live.models }
    /// The last write's failure; cleared by the next write that succeeds.
    public var writeError: String? { live.writeError }

    /// What the screen shows as its error: a failed write, the listener's problem, "No
    /// documents in 'colors' collection", or every document that does not decode.
    public var errorMessage: String? {
        if let writeError { return writeError }
        if let status = live.statusMessage { return status }
        let problems = live.problems
        return problems.isEmpty ? nil : problems.map(\.message).joined(separator: "\n")
    }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }

    /// Adds `newColor` as a new document, then starts a fresh `newColor`.
    @discardableResult
    public func addColorEntry() -> DocumentReference? {
        live.attempt {
            let reference = try live.add(newColor)
            newColor = .empty
            return reference
        }
    }

    public func updateColorEntry(_ entry: ColorEntry) {
        guard let id = entry.id else { return live.refuse("The colour has no id: add it first") }
        live.attempt { try live.update(entry, id: id) }
    }

    public func deleteColorEntry(id: String) {
        live.attempt { try live.delete(id: id) }
    }
}

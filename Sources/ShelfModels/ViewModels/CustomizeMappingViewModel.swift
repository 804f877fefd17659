import DocumentStore
import Foundation
import Observation

/// The guide's "Dates and times / custom mapping" screen: programming languages, live.
@Observable @MainActor
public final class CustomizeMappingViewModel {
    public let live: LiveCollection<ProgrammingLanguage>

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("programming-languages"))
    }

    public var programmingLanguages: [ProgrammingLanguage] { live.models }
    public var writeError: String? { live.writeError }
    public var errorMessage: String? { writeError ?? live.statusMessage }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }

    @discardableResult
    public func addLanguage(name: String, year: Date) -> DocumentReference? {
        live.attempt { try live.add(ProgrammingLanguage(name: name, year: year)) }
    }
}

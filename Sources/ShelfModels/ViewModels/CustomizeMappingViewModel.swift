import DocumentStore
import Foundation
import Observation

/// The guide's "Dates and times / custom mapping" screen: programming languages, live.
@Observable @MainActor
public final class CustomizeMappingViewModel {
    public let live: LiveCollection<ProgrammingLanguage>
    public private(set) var writeError: String?

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("programming-languages"))
    }

    public var programmingLanguages: [ProgrammingLanguage] { live.models }
    public var errorMessage: String? { writeError ?? live.statusMessage }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }

    @discardableResult
    public func addLanguage(name: String, year: Date) -> DocumentReference? {
        do {
            let reference = try live.add(ProgrammingLanguage(name: name, year: year))
            writeError = nil
            return reference
        } catch {
            writeError = DocumentProblem(path: live.collection.path, error: error).message
            return nil
        }
    }
}

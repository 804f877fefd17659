@testable import DocumentStore
@testable import TerminalUI

extension AppModel {
    /// The shown tab takes in what the store holds now (`deliverToListeners`).
    func deliver() async throws {
        await store.collection(tab.collectionID).deliverToListeners()
    }
}

import DocumentStore
import Observation

/// The guide's "GeoPoints" screen: offices and their coordinates, live.
@Observable @MainActor
public final class MappingGeoPointsViewModel {
    public let live: LiveCollection<Office>

    public init(db: Firestore = .firestore()) {
        live = LiveCollection(db.collection("locations"))
    }

    public var offices: [Office] { live.models }
    public var errorMessage: String? { live.statusMessage }

    public func subscribe() { live.subscribe() }
    public func unsubscribe() { live.unsubscribe() }
}

import DocumentStore

/// Found by name when a program links this module (`ServerSchemes`), so firestore:// URLs and
/// `useEmulator(withHost:port:)` work without a call to `Firestore.enableFirestoreServers()`.
final class FirestoreServerScheme: ServerSchemeModule {
    static func enable() { Firestore.enableFirestoreServers() }
}

import DocumentStore

/// Found by name when a program links this module (`ServerSchemes`), so postgresql:// URLs
/// open without a call to `Firestore.enablePostgreSQL()`.
final class PostgreSQLScheme: ServerSchemeModule {
    static func enable() { Firestore.enablePostgreSQL() }
}

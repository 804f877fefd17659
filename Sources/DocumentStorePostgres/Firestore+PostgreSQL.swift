import DocumentStore

extension Firestore {
    /// Lets `Firestore(url:)` and `Firestore.configure(url:)` open
    /// `postgresql://user:password@host:port/database` (or `postgres://`) URLs. A program that
    /// links this module needs not call it: the first such URL finds it (`ServerSchemes`).
    public static func enablePostgreSQL() {
        ServerSchemes.register(["postgresql", "postgres"]) { url in try PostgresServer(url: url) }
        ServerSchemes.register(neighboursOf: ["postgresql", "postgres"], PostgresNeighbours.neighbours)
    }
}

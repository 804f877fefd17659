import DocumentStore

extension Firestore {
    /// Lets `Firestore(url:)` and `Firestore.configure(url:)` open
    /// `postgresql://user:password@host:port/database` (or `postgres://`) URLs. Call it once,
    /// before opening such a store; the core library knows no server by itself.
    public static func enablePostgreSQL() {
        ServerSchemes.register(["postgresql", "postgres"]) { url in try PostgresServer(url: url) }
        ServerSchemes.register(namedDatabasesOf: ["postgresql", "postgres"]) { name, url in
            try Firestore.postgreSQLURL(ofDatabase: name, besides: url)
        }
    }
}

import PostgresNIO

/// The tables Shelf keeps in its database, made on first use and brought up to date by
/// numbered migrations, each applied once (in one transaction, under an advisory lock so two
/// clients starting together do not both apply it). `shelf_schema` holds the version reached.
///
/// `shelf_documents` holds one row per document: its full path (the key), its parent
/// collection's path and that collection's id (for collection and collection group queries),
/// its fields as `jsonb` in the on-disk encoding (see DocumentStore's `DocumentText`), and when
/// it was last written. A trigger announces each written path on the channel `shelf_changes`
/// (an empty payload for a path too long for a notification: "re-read everything").
enum PostgresSchema {
    static let channel = "shelf_changes"
    /// Any fixed number: the key of the advisory lock migrations hold.
    static let migrationLock = 0x5348_454C_46

    static let migrations: [String] = [
        """
        CREATE TABLE shelf_documents (
            path text COLLATE "C" PRIMARY KEY,
            parent text COLLATE "C" NOT NULL,
            collection_id text COLLATE "C" NOT NULL,
            fields jsonb NOT NULL,
            update_time timestamptz NOT NULL DEFAULT clock_timestamp()
        );
        CREATE INDEX shelf_documents_parent ON shelf_documents (parent, path);
        CREATE INDEX shelf_documents_group ON shelf_documents (collection_id, path);
        CREATE FUNCTION shelf_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            changed text := CASE WHEN TG_OP = 'DELETE' THEN OLD.path ELSE NEW.path END;
        BEGIN
            PERFORM pg_notify('shelf_changes', CASE WHEN octet_length(changed) < 7900 THEN changed ELSE '' END);
            RETURN NULL;
        END;
        $$;
        CREATE TRIGGER shelf_documents_changed AFTER INSERT OR UPDATE OR DELETE ON shelf_documents
            FOR EACH ROW EXECUTE FUNCTION shelf_notify_change();
        """,
    ]

    /// Brings the database to the latest version.
    static func migrate(_ connection: PostgresConnection, logger: Logger) throws {
        func run(_ sql: String) throws {
            _ = try connection.simpleQuery(sql).wait()  // the simple protocol: several statements at once
        }
        try run("SELECT pg_advisory_lock(\(migrationLock))")
        defer { try? run("SELECT pg_advisory_unlock(\(migrationLock))") }
        try run("CREATE TABLE IF NOT EXISTS shelf_schema (version integer NOT NULL)")
        let rows = try connection.query("SELECT coalesce(max(version), 0) FROM shelf_schema", logger: logger).wait().rows
        let version = try rows.first?.decode(Int.self) ?? 0
        guard version < migrations.count else { return }
        for (index, migration) in migrations.enumerated().dropFirst(version) {
            try run("BEGIN")
            do {
                try run(migration)
                try run("DELETE FROM shelf_schema; INSERT INTO shelf_schema (version) VALUES (\(index + 1))")
                try run("COMMIT")
            } catch {
                try? run("ROLLBACK")
                throw error
            }
        }
    }
}

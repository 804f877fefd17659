import PostgresNIO

/// The tables Shelf keeps in its database, made on first use and brought up to date by
/// numbered migrations, each applied once (in one transaction, under an advisory lock so two
/// clients starting together do not both apply it). `shelf_schema` holds the version reached.
///
/// `shelf_documents` holds one row per document: its full path (the key), its parent
/// collection's path and that collection's id (for collection and collection group queries),
/// its fields as `jsonb` in the on-disk encoding (see DocumentStore's `DocumentText`), when
/// it was created and last written (kept by a trigger, see migration 6), and the text of its
/// strings that words are found in (see migration 8).
///
/// Changes are announced on the channel `shelf_changes`, as JSON naming the paths written (see
/// `PostgresChanges.payload`):
/// Shelf's own commits send one notification each, with every path they wrote, so a listener
/// sees a batch in one snapshot (`PostgresServer` sets `shelf.writer` for the trigger to stay
/// quiet); any other writer (psql, a script) is announced row by row by a trigger. An empty
/// payload (the paths would not fit in a notification) means "read everything again".
enum PostgresSchema {
    static let channel = "shelf_changes"
    /// Longest payload sent; PostgreSQL takes up to 8000 bytes.
    static let maximumPayload = 7900
    /// Any fixed number: the key of the advisory lock migrations hold.
    static let migrationLock = 0x5348_454C_46

    /// Each migration's statements, run one by one (the extended protocol takes one at a time).
    static let migrations: [[String]] = [[
        """
        CREATE TABLE shelf_documents (
            path text COLLATE "C" PRIMARY KEY,
            parent text COLLATE "C" NOT NULL,
            collection_id text COLLATE "C" NOT NULL,
            fields jsonb NOT NULL,
            update_time timestamptz NOT NULL DEFAULT clock_timestamp()
        )
        """,
        "CREATE INDEX shelf_documents_parent ON shelf_documents (parent, path)",
        "CREATE INDEX shelf_documents_group ON shelf_documents (collection_id, path)",
        """
        CREATE FUNCTION shelf_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            changed text := json_build_object('paths', json_build_array(CASE WHEN TG_OP = 'DELETE' THEN OLD.path ELSE NEW.path END))::text;
        BEGIN
            IF coalesce(current_setting('shelf.writer', true), '') <> 'on' THEN
                PERFORM pg_notify('shelf_changes', CASE WHEN octet_length(changed) < 7900 THEN changed ELSE '' END);
            END IF;
            RETURN NULL;
        END;
        $$
        """,
        """
        CREATE TRIGGER shelf_documents_changed AFTER INSERT OR UPDATE OR DELETE ON shelf_documents
            FOR EACH ROW EXECUTE FUNCTION shelf_notify_change()
        """,
    ], [
        // 2: queries' equality filters (`fields @> …`, see ServerPrefilter) use an index.
        "CREATE INDEX shelf_documents_fields ON shelf_documents USING gin (fields jsonb_path_ops)",
    ], [
        // 3: a field's place in query orders (see DocumentStore's ServerPage, ServerOrderRank):
        // immutable, so an index on a field's order can be made with them (PostgresPageQuery).
        """
        CREATE FUNCTION shelf_order_rank(v jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE jsonb_typeof(v)
            WHEN 'null' THEN 0
            WHEN 'boolean' THEN 1
            WHEN 'number' THEN CASE WHEN v::numeric <= -9007199254740992 THEN 4 WHEN v::numeric >= 9007199254740992 THEN 6 ELSE 5 END
            WHEN 'object' THEN CASE
                WHEN v = '{"$double": "NaN"}' THEN 2
                WHEN v = '{"$double": "-Infinity"}' THEN 3
                WHEN v = '{"$double": "Infinity"}' THEN 7
                WHEN jsonb_typeof(v -> '$double') = 'number' THEN 5
                ELSE 8 END
            ELSE 8 END
        $$
        """,
        """
        CREATE FUNCTION shelf_order_key(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE jsonb_typeof(v) WHEN 'number' THEN v::numeric WHEN 'boolean' THEN CASE WHEN v = 'true' THEN 1 ELSE 0 END ELSE 0 END
        $$
        """,
    ], [
        // 4: collection group pages by id, in Firestore's order of paths: segment by segment
        // (see PostgresPageQuery).
        "CREATE INDEX shelf_documents_group_segments ON shelf_documents (collection_id, string_to_array(path, '/'))",
    ], [
        // 5: a map with a "$double" key among others is a map, not a number (migration 3's rank,
        // kept as shelf_order_rank_3, said 5): the indexes made with it go, clients make them again.
        dropOrderIndexes,
        "ALTER FUNCTION shelf_order_rank(jsonb) RENAME TO shelf_order_rank_3",
        """
        CREATE FUNCTION shelf_order_rank(v jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN jsonb_typeof(v) = 'object' THEN
            CASE WHEN v ? '$double' AND v - '$double' <> '{}' THEN 8 ELSE shelf_order_rank_3(v) END
            ELSE shelf_order_rank_3(v) END
        $$
        """,
        // The types after numbers in query orders (see DocumentStore's ServerOrderRank):
        // timestamps, then strings by their bytes (compared COLLATE "C"), then the rest.
        """
        CREATE FUNCTION shelf_order_text(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN shelf_order_rank(v) <> 8 THEN ''
            WHEN jsonb_typeof(v) = 'string' THEN chr(2) || (v #>> '{}')
            WHEN jsonb_typeof(v) = 'object' AND jsonb_typeof(v -> '$timestamp') = 'string' THEN CASE WHEN v - '$timestamp' = '{}' THEN chr(1) ELSE chr(3) END
            ELSE chr(3) END
        $$
        """,
    ], [
        // 6: Firestore's create time beside the update time, both kept by the server for every
        // writer (psql too): a new row gets the clock's time for both; an update keeps the create
        // time and moves the update time on, by a microsecond at least, so that an update_time
        // precondition always sees a change. A commit that sets `shelf.keep_times` (`shelf
        // export`) stores the times it gives instead. Documents already there were created
        // when last written, as far as anyone can tell.
        "SELECT set_config('shelf.writer', 'on', true)",
        "ALTER TABLE shelf_documents ADD COLUMN create_time timestamptz",
        "UPDATE shelf_documents SET create_time = update_time",
        "ALTER TABLE shelf_documents ALTER COLUMN create_time SET NOT NULL, ALTER COLUMN create_time SET DEFAULT clock_timestamp()",
        """
        CREATE FUNCTION shelf_stamp_times() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF coalesce(current_setting('shelf.keep_times', true), '') = 'on' AND NEW.create_time IS NOT NULL AND NEW.update_time IS NOT NULL THEN
                RETURN NEW;
            END IF;
            IF TG_OP = 'INSERT' THEN
                NEW.update_time := clock_timestamp();
                NEW.create_time := NEW.update_time;
            ELSE
                NEW.create_time := OLD.create_time;
                NEW.update_time := greatest(clock_timestamp(), OLD.update_time + interval '1 microsecond');
            END IF;
            RETURN NEW;
        END;
        $$
        """,
        """
        CREATE TRIGGER shelf_documents_stamp_times BEFORE INSERT OR UPDATE ON shelf_documents
            FOR EACH ROW EXECUTE FUNCTION shelf_stamp_times()
        """,
    ], [
        // 7: Firestore's order of ids (DocumentStore's IDOrder) instead of their bytes: numeric
        // ids (`__id<n>__`, n a 64-bit integer) first by number, then the others by their bytes.
        // Each id has a key, text compared COLLATE "C": chr(1), n + 2^63 in 20 digits and the id
        // (two spellings of one number, "__id7__" and "__id007__", by their bytes), or chr(2) and
        // the id. Pages order by the keys (see PostgresPageQuery), served by indexes on them;
        // the order indexes made so far end with the path's bytes: they go, clients make them again.
        // Written to run again over its own work (a database put back to an earlier version).
        dropOrderIndexes,
        "DROP INDEX IF EXISTS shelf_documents_group_segments",
        // The number's cast sits in a CASE of its own: a constant id is folded by the planner,
        // which skips a branch whose condition is false but would evaluate an AND's every side.
        """
        CREATE OR REPLACE FUNCTION shelf_id_key(id text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN left(id, 4) = '__id' AND id ~ '^__id-?[0-9]+__$' THEN
            CASE WHEN substr(id, 5, length(id) - 6)::numeric BETWEEN -9223372036854775808 AND 9223372036854775807
                THEN chr(1) || lpad((substr(id, 5, length(id) - 6)::numeric + 9223372036854775808)::text, 20, '0') || id
                ELSE chr(2) || id END
            ELSE chr(2) || id END
        $$
        """,
        // A document among its collection's: its id's key. Most paths have no "/__id" and skip
        // shelf_id_key's tests (half the time of a key, when sums order every row by it).
        """
        CREATE OR REPLACE FUNCTION shelf_name_key(path text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN strpos(path, '/__id') = 0 THEN chr(2) || reverse(split_part(reverse(path), '/', 1))
            ELSE shelf_id_key(reverse(split_part(reverse(path), '/', 1))) END
        $$
        """,
        // A path among others: its segments' keys, compared one by one (a path before the longer
        // ones it begins). Paths without "__id" need no function per segment.
        """
        CREATE OR REPLACE FUNCTION shelf_segment_keys(path text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT array_agg(shelf_id_key(s) ORDER BY n) FROM unnest(string_to_array(path, '/')) WITH ORDINALITY AS t(s, n)
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION shelf_path_key(path text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN strpos(path, '__id') = 0 THEN string_to_array(chr(2) || replace(path, '/', '/' || chr(2)), '/')
            ELSE shelf_segment_keys(path) END
        $$
        """,
        "CREATE INDEX IF NOT EXISTS shelf_documents_parent_ids ON shelf_documents (parent, shelf_name_key(path))",
        "CREATE INDEX IF NOT EXISTS shelf_documents_group_ids ON shelf_documents (collection_id, shelf_path_key(path))",
        // The planner learns the new expressions now rather than when autovacuum gets to it.
        "ANALYZE shelf_documents",
    ], [
        // 8: words within a document's strings (DocumentStore's TextWords, a list's filter as
        // you type): the strings of a value, at any depth, as the store reads them (a tagged
        // value holds none; "$map" holds a map); a document's are its fields', joined by a
        // newline (never in a word matched here), ASCII folded to lower case as TextWords folds.
        """
        CREATE OR REPLACE FUNCTION shelf_strings(v jsonb) RETURNS SETOF text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        DECLARE
            item jsonb;
        BEGIN
            CASE jsonb_typeof(v)
            WHEN 'string' THEN RETURN NEXT v #>> '{}';
            WHEN 'array' THEN
                FOR item IN SELECT jsonb_array_elements(v) LOOP RETURN QUERY SELECT shelf_strings(item); END LOOP;
            WHEN 'object' THEN
                IF (SELECT count(*) FROM jsonb_object_keys(v)) = 1 THEN
                    IF v ?| ARRAY['$double', '$timestamp', '$bytes', '$ref', '$geopoint'] THEN RETURN; END IF;
                    IF v ? '$map' THEN RETURN QUERY SELECT shelf_strings(v -> '$map'); RETURN; END IF;
                END IF;
                FOR item IN SELECT value FROM jsonb_each(v) LOOP RETURN QUERY SELECT shelf_strings(item); END LOOP;
            ELSE
                RETURN;
            END CASE;
        END;
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION shelf_search_text(fields jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT translate(coalesce(string_agg(s, chr(10)), ''), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
        FROM jsonb_each(fields) AS f(name, value), shelf_strings(f.value) AS s
        $$
        """,
        // Kept beside the fields, so a word found in most rows (a filter's first letter) is a
        // scan of text, not of the function.
        "ALTER TABLE shelf_documents ADD COLUMN IF NOT EXISTS search_text text GENERATED ALWAYS AS (shelf_search_text(fields)) STORED",
        // A trigram index finds the words (LIKE '%word%') without reading every row, where the
        // server has pg_trgm (Debian's PostgreSQL does) and lets this database use it; else the
        // words are still matched, by reading the collection's rows.
        """
        DO $$ BEGIN
            CREATE EXTENSION IF NOT EXISTS pg_trgm;
            CREATE INDEX IF NOT EXISTS shelf_documents_words ON shelf_documents USING gin (search_text gin_trgm_ops);
        EXCEPTION WHEN OTHERS THEN
            RAISE NOTICE 'Shelf: no trigram index for words (%)', SQLERRM;
        END $$
        """,
    ], [
        // 9: arrays in query orders, element by element as Firestore compares them (see
        // DocumentStore's ServerOrderRank), so a page ordered by a list of tags is read along an
        // index; maps after arrays. The indexes made with the old texts go, clients make them
        // again. No subquery in these (an SQL function with one cost 235 µs a row, seven times
        // the loop's): an index of ten million rows is built in minutes, not in a quarter hour.
        dropOrderIndexes,
        """
        CREATE OR REPLACE FUNCTION shelf_element_text(e jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
            WHEN jsonb_typeof(e) = 'null' THEN 'a'
            WHEN jsonb_typeof(e) = 'boolean' THEN CASE WHEN e = 'true' THEN 'b1' ELSE 'b0' END
            WHEN shelf_order_rank(e) <> 8 THEN 'c'
            WHEN jsonb_typeof(e) = 'string' THEN 'e' || replace(replace(e #>> '{}', chr(2), chr(2) || chr(2)), chr(1), chr(2) || chr(1))
            WHEN jsonb_typeof(e) = 'array' THEN 'i'
            WHEN jsonb_typeof(e -> '$timestamp') = 'string' AND e - '$timestamp' = '{}' THEN 'd'
            WHEN e ?| ARRAY['$bytes', '$ref', '$geopoint'] AND e - '$bytes' - '$ref' - '$geopoint' = '{}' THEN 'f'
            ELSE 'k' END || chr(1)
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION shelf_array_text(v jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        DECLARE
            result text := chr(4);
            element jsonb;
        BEGIN
            FOR element IN SELECT * FROM jsonb_array_elements(v) LOOP
                result := result || shelf_element_text(element);
            END LOOP;
            RETURN result;
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION shelf_order_text(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN shelf_order_rank(v) <> 8 THEN ''
            WHEN jsonb_typeof(v) = 'string' THEN chr(2) || (v #>> '{}')
            WHEN jsonb_typeof(v) = 'array' THEN shelf_array_text(v)
            WHEN jsonb_typeof(v -> '$timestamp') = 'string' AND v - '$timestamp' = '{}' THEN chr(1)
            WHEN v ?| ARRAY['$bytes', '$ref', '$geopoint'] AND v - '$bytes' - '$ref' - '$geopoint' = '{}' THEN chr(3)
            ELSE chr(5) END
        $$
        """,
    ], [
        // 10: each function calls the others by their schema's name (`qualifyFunctionCalls`);
        // autovacuum's every analyze of the table had failed, and its vacuums with them (the
        // server's log at ten million rows).
        qualifyFunctionCalls,
    ], [
        // 11: an order index holds only the rows that have its fields (`PostgresPageQuery.orderIndex`):
        // the indexes of every row go, clients make the new ones.
        dropOrderIndexes,
    ], [
        // 12: past versions, for reads at a past time (see `PostgresVersions`): each row any
        // writer updates or deletes, kept with the time of the commit that replaced it (an
        // update's new update time; for a delete, the time Shelf's commit sets in
        // `shelf.commit_time`, or the clock's for other writers).
        """
        CREATE TABLE IF NOT EXISTS shelf_versions (
            path text COLLATE "C" NOT NULL,
            parent text COLLATE "C" NOT NULL,
            collection_id text COLLATE "C" NOT NULL,
            fields jsonb NOT NULL,
            create_time timestamptz NOT NULL,
            update_time timestamptz NOT NULL,
            replaced_at timestamptz NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS shelf_versions_path ON shelf_versions (path, replaced_at)",
        "CREATE INDEX IF NOT EXISTS shelf_versions_parent ON shelf_versions (parent, replaced_at)",
        "CREATE INDEX IF NOT EXISTS shelf_versions_group ON shelf_versions (collection_id, replaced_at)",
        "CREATE INDEX IF NOT EXISTS shelf_versions_replaced ON shelf_versions (replaced_at)",
        """
        CREATE OR REPLACE FUNCTION shelf_keep_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO shelf_versions (path, parent, collection_id, fields, create_time, update_time, replaced_at)
            VALUES (OLD.path, OLD.parent, OLD.collection_id, OLD.fields, OLD.create_time, OLD.update_time,
                CASE WHEN TG_OP = 'UPDATE' THEN NEW.update_time
                    ELSE coalesce(nullif(current_setting('shelf.commit_time', true), '')::timestamptz, clock_timestamp()) END);
            RETURN NULL;
        END;
        $$
        """,
        """
        CREATE OR REPLACE TRIGGER shelf_documents_keep_version AFTER UPDATE OR DELETE ON shelf_documents
            FOR EACH ROW EXECUTE FUNCTION shelf_keep_version()
        """,
    ]]

    /// Makes each of Shelf's functions again with its calls of the others qualified by their
    /// schema: autovacuum runs with an empty search_path, where an unqualified call in an
    /// index's expression (shelf_name_key's of shelf_id_key) is not found. The same functions,
    /// so the same indexes. A migration that makes functions ends with it.
    private static let qualifyFunctionCalls = """
        DO $$ DECLARE f record; BEGIN
            FOR f IN SELECT p.oid FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace AND p.proname LIKE 'shelf\\_%' LOOP
                EXECUTE regexp_replace(pg_get_functiondef(f.oid), '(?<![.\\w])(shelf_\\w+\\s*\\()', quote_ident(current_schema()) || '.\\1', 'g');
            END LOOP;
        END $$
        """

    /// Drops the indexes that pages ordered by fields made (`PostgresPageQuery.orderIndex`),
    /// when what they order by changes.
    private static let dropOrderIndexes = """
        DO $$ DECLARE i record; BEGIN
            FOR i IN SELECT indexname FROM pg_indexes WHERE tablename = 'shelf_documents' AND left(indexname, 12) = 'shelf_order_' LOOP
                EXECUTE format('DROP INDEX %I', i.indexname);
            END LOOP;
        END $$
        """

    /// Brings the database to the latest version.
    static func migrate(_ connection: PostgresConnection, logger: Logger) throws {
        let queries = PostgresQueries(connection: connection, logger: logger)
        func run(_ sql: String) throws { try queries.rows(PostgresQuery(unsafeSQL: sql)) }
        try run("SELECT pg_advisory_lock(\(migrationLock))")
        defer { try? run("SELECT pg_advisory_unlock(\(migrationLock))") }
        try run("CREATE TABLE IF NOT EXISTS shelf_schema (version integer NOT NULL)")
        let rows = try queries.rows("SELECT coalesce(max(version), 0) FROM shelf_schema")
        let version = try rows.first?.decode(Int.self) ?? 0
        guard version < migrations.count else { return }
        for (index, migration) in migrations.enumerated().dropFirst(version) {
            try run("BEGIN")
            do {
                for statement in migration { try run(statement) }
                try run("DELETE FROM shelf_schema")
                try run("INSERT INTO shelf_schema (version) VALUES (\(index + 1))")
                try run("COMMIT")
            } catch {
                try? run("ROLLBACK")
                throw error
            }
        }
    }
}

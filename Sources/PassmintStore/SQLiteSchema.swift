import Foundation

/// The SQLite store's tables (named, forward-only migrations) and how a pass row reads and writes.
enum SQLiteSchema {
    static let migrations: [(version: Int, name: String, sql: String)] = [
        (
            1, "create passes, devices, registrations",
            """
            CREATE TABLE IF NOT EXISTS passes (
                pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, authentication_token TEXT NOT NULL,
                template TEXT NOT NULL, data TEXT NOT NULL, voided INTEGER NOT NULL DEFAULT 0,
                update_tag INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_push TEXT,
                PRIMARY KEY (pass_type_id, serial_number));
            CREATE INDEX IF NOT EXISTS passes_by_tag ON passes (pass_type_id, update_tag);
            CREATE TABLE IF NOT EXISTS devices (device_library_id TEXT PRIMARY KEY, push_token TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS devices_by_token ON devices (push_token);
            CREATE TABLE IF NOT EXISTS registrations (
                device_library_id TEXT NOT NULL, pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL,
                PRIMARY KEY (device_library_id, pass_type_id, serial_number));
            CREATE INDEX IF NOT EXISTS registrations_by_pass ON registrations (pass_type_id, serial_number);
            CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT OR IGNORE INTO counters (name, value) VALUES ('update_tag', 0);
            """
        ),
        (2, "personalization of rewards passes", "ALTER TABLE passes ADD COLUMN personalization TEXT;"),
        (3, "per-pass images", "CREATE TABLE IF NOT EXISTS images (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL);"),
        (
            4, "durable push queue; passes by template",
            """
            CREATE TABLE IF NOT EXISTS push_outbox (
                push_token TEXT NOT NULL, pass_type_id TEXT NOT NULL, generation INTEGER NOT NULL, due_at INTEGER NOT NULL,
                lease_until INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0, enqueued_at INTEGER NOT NULL,
                PRIMARY KEY (push_token, pass_type_id));
            CREATE INDEX IF NOT EXISTS push_outbox_by_due ON push_outbox (due_at);
            CREATE TABLE IF NOT EXISTS push_results (
                push_token TEXT NOT NULL, pass_type_id TEXT NOT NULL, result TEXT NOT NULL, at INTEGER NOT NULL,
                PRIMARY KEY (push_token, pass_type_id));
            CREATE INDEX IF NOT EXISTS passes_by_template ON passes (template, pass_type_id, serial_number);
            """
        ),
        (
            5, "pass events, daily aggregates, devices per pass, the store's settings",
            """
            CREATE TABLE IF NOT EXISTS pass_events (
                id INTEGER PRIMARY KEY, kind TEXT NOT NULL, pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL,
                template TEXT NOT NULL, at INTEGER NOT NULL, device_hash TEXT, change_at INTEGER);
            CREATE INDEX IF NOT EXISTS pass_events_by_time ON pass_events (at);
            CREATE TABLE IF NOT EXISTS event_days (
                day INTEGER NOT NULL, kind TEXT NOT NULL, pass_type_id TEXT NOT NULL, template TEXT NOT NULL,
                count INTEGER NOT NULL, within_hour INTEGER NOT NULL, within_day INTEGER NOT NULL,
                PRIMARY KEY (day, kind, pass_type_id, template));
            CREATE TABLE IF NOT EXISTS pass_devices (
                pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, devices INTEGER NOT NULL,
                PRIMARY KEY (pass_type_id, serial_number));
            INSERT OR IGNORE INTO pass_devices (pass_type_id, serial_number, devices)
                SELECT pass_type_id, serial_number, COUNT(*) FROM registrations GROUP BY pass_type_id, serial_number;
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at)
                SELECT 'installed', p.pass_type_id, p.serial_number, p.template, CAST(strftime('%s', 'now') AS INTEGER) * 1000
                FROM pass_devices d JOIN passes p ON p.pass_type_id = d.pass_type_id AND p.serial_number = d.serial_number;
            CREATE TABLE IF NOT EXISTS store_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
            """
        ),
        (
            6, "webhooks and their durable deliveries, owed by a trigger in each event's transaction",
            """
            CREATE TABLE IF NOT EXISTS webhooks (
                id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, created_at INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS webhook_deliveries (
                id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, webhook_id TEXT NOT NULL, kind TEXT NOT NULL,
                pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, template TEXT NOT NULL, at INTEGER NOT NULL,
                device_hash TEXT, change_at INTEGER, due_at INTEGER NOT NULL, lease_until INTEGER NOT NULL DEFAULT 0,
                attempts INTEGER NOT NULL DEFAULT 0, delivered_at INTEGER, failed_at INTEGER, last_error TEXT);
            CREATE INDEX IF NOT EXISTS webhook_deliveries_owed ON webhook_deliveries (due_at)
                WHERE delivered_at IS NULL AND failed_at IS NULL;
            CREATE INDEX IF NOT EXISTS webhook_deliveries_by_pass ON webhook_deliveries (webhook_id, pass_type_id, serial_number, id)
                WHERE delivered_at IS NULL AND failed_at IS NULL;
            CREATE TRIGGER IF NOT EXISTS pass_events_owe_webhooks AFTER INSERT ON pass_events BEGIN
                INSERT INTO webhook_deliveries (event_id, webhook_id, kind, pass_type_id, serial_number, template, at, device_hash,
                    change_at, due_at)
                SELECT 'evt_' || lower(hex(randomblob(16))), w.id, NEW.kind, NEW.pass_type_id, NEW.serial_number, NEW.template,
                    NEW.at, NEW.device_hash, NEW.change_at, NEW.at
                FROM webhooks w WHERE instr(w.events, ',' || NEW.kind || ',') > 0;
            END;
            """
        ),
        (
            7, "wallet orders, their devices and registrations",
            """
            CREATE TABLE IF NOT EXISTS orders (
                order_type_id TEXT NOT NULL, order_id TEXT NOT NULL, authentication_token TEXT NOT NULL, template TEXT NOT NULL,
                data TEXT NOT NULL, update_tag INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (order_type_id, order_id));
            CREATE TABLE IF NOT EXISTS order_devices (device_library_id TEXT PRIMARY KEY, push_token TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS order_devices_by_token ON order_devices (push_token);
            CREATE TABLE IF NOT EXISTS order_registrations (
                device_library_id TEXT NOT NULL, order_type_id TEXT NOT NULL, order_id TEXT NOT NULL,
                PRIMARY KEY (device_library_id, order_type_id, order_id));
            CREATE INDEX IF NOT EXISTS order_registrations_by_order ON order_registrations (order_type_id, order_id);
            """
        ),
        (
            8, "Google Wallet objects and their durable patch queue",
            """
            CREATE TABLE IF NOT EXISTS google_objects (
                pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, PRIMARY KEY (pass_type_id, serial_number));
            CREATE TABLE IF NOT EXISTS google_outbox (
                pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, generation INTEGER NOT NULL, due_at INTEGER NOT NULL,
                lease_until INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0, enqueued_at INTEGER NOT NULL,
                PRIMARY KEY (pass_type_id, serial_number));
            CREATE INDEX IF NOT EXISTS google_outbox_by_due ON google_outbox (due_at);
            """
        ),
        (
            11, "Google objects by their id, and the nonces of the save/delete callbacks recorded",
            """
            ALTER TABLE google_objects ADD COLUMN object_id TEXT;
            CREATE INDEX IF NOT EXISTS google_objects_by_id ON google_objects (object_id);
            CREATE TABLE IF NOT EXISTS google_callbacks (nonce TEXT PRIMARY KEY, at INTEGER NOT NULL);
            """
        ),
        (
            12, "installs and removals read from the registrations (one writer), not from a count of devices per pass",
            "DROP TABLE IF EXISTS pass_devices;"
        ),
        (
            13, "when each per-pass image was last stored, so that images no pass names any more can be deleted",
            "ALTER TABLE images ADD COLUMN stored_at INTEGER NOT NULL DEFAULT 0;"
        ),
        (
            14, "idempotency keys: each creating request's first answer, per API key, for a day",
            """
            CREATE TABLE idempotency_keys (
                scope TEXT NOT NULL, key TEXT NOT NULL, claim TEXT NOT NULL, claimed_at INTEGER NOT NULL,
                request_hash TEXT, status INTEGER, headers TEXT, body BLOB,
                PRIMARY KEY (scope, key)
            );
            CREATE INDEX idempotency_keys_claimed_at ON idempotency_keys (claimed_at);
            """
        ),
        (
            15, "erased passes: a tombstone's time of erasure (milliseconds), so that its serial is not issued again",
            "ALTER TABLE passes ADD COLUMN erased_at INTEGER;"
        ),
        (
            16, "bulk-update jobs in the database, as on PostgreSQL: state, lease, upload in blocks, failures kept",
            """
            CREATE TABLE IF NOT EXISTS update_jobs (
                id TEXT PRIMARY KEY, kind TEXT NOT NULL, running INTEGER NOT NULL, state TEXT NOT NULL, owner TEXT,
                lease_until INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, finished_at INTEGER);
            CREATE INDEX IF NOT EXISTS update_jobs_running ON update_jobs (kind, lease_until) WHERE running;
            CREATE INDEX IF NOT EXISTS update_jobs_by_creation ON update_jobs (created_at);
            CREATE TABLE IF NOT EXISTS update_job_uploads (
                job_id TEXT NOT NULL, position INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (job_id, position));
            CREATE TABLE IF NOT EXISTS update_job_failures (
                seq INTEGER PRIMARY KEY AUTOINCREMENT, job_id TEXT NOT NULL, phase TEXT NOT NULL, line INTEGER NOT NULL,
                failure TEXT NOT NULL, UNIQUE (job_id, phase, line));
            """
        ),
        (
            17, "immutable template versions by content hash, and the version each pass is rendered from",
            """
            CREATE TABLE template_versions (
                hash TEXT PRIMARY KEY, name TEXT NOT NULL, content TEXT NOT NULL, stored_at INTEGER NOT NULL
            );
            CREATE INDEX template_versions_by_name ON template_versions (name, stored_at);
            ALTER TABLE passes ADD COLUMN template_version TEXT;
            CREATE INDEX passes_without_template_version ON passes (template) WHERE template_version IS NULL;
            """
        ),
        (
            18, "orders are documents of the passes' tables: their rows, devices and registrations moved, the order tables dropped",
            """
            INSERT OR IGNORE INTO passes (pass_type_id, serial_number, authentication_token, template, data, update_tag, updated_at)
                SELECT order_type_id, order_id, authentication_token, template || '.order', data, update_tag, updated_at FROM orders;
            INSERT OR IGNORE INTO devices (device_library_id, push_token) SELECT device_library_id, push_token FROM order_devices;
            INSERT OR IGNORE INTO registrations (device_library_id, pass_type_id, serial_number)
                SELECT device_library_id, order_type_id, order_id FROM order_registrations;
            DROP TABLE order_registrations;
            DROP TABLE order_devices;
            DROP TABLE orders;
            """
        ),
        (
            19, "payments by the token's transaction id: replays refused, each carried from received to approved to issued once",
            """
            CREATE TABLE payments (
                transaction_id TEXT PRIMARY KEY, state TEXT NOT NULL, request_hash TEXT NOT NULL, claim TEXT,
                claimed_at INTEGER NOT NULL, received_at INTEGER NOT NULL, outcome TEXT, pass_type_id TEXT, serial_number TEXT
            );
            """
        ),
        (
            20, "when each block of a job's upload was written: blocks a killed receiver left with no job are removed a lease later",
            "ALTER TABLE update_job_uploads ADD COLUMN written_at INTEGER NOT NULL DEFAULT 0;"
        ),
        (
            21, "owed webhook deliveries by id: a claim walks only what is owed, not every delivery kept since the last prune",
            """
            CREATE INDEX IF NOT EXISTS webhook_deliveries_owed_by_id ON webhook_deliveries (id)
                WHERE delivered_at IS NULL AND failed_at IS NULL;
            """
        ),
    ]

    /// Applies the migrations not applied yet (up to `last`: a test makes an older version's database).
    static func migrate(_ db: SQLiteConnection, through last: Int = .max) throws {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)")
        var applied: Set<Int64> = []
        try db.query("SELECT version FROM schema_migrations") { applied.insert($0.integer(0)) }
        for migration in migrations where !applied.contains(Int64(migration.version)) && migration.version <= last {
            try db.execute(migration.sql)
            try db.query(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                [.integer(Int64(migration.version)), .text(migration.name), .integer(Int64(Date().timeIntervalSince1970))])
        }
    }

    static let passColumns = """
        pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, last_push, personalization,
        erased_at, template_version
        """

    /// The values of a new pass's row, for `INSERT INTO passes (passColumns) VALUES \(newPassValues)`.
    static let newPassPlaceholders = "(?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?)"

    static func newPassValues(_ pass: StoredPass) -> [SQLiteConnection.Value] {
        [
            .text(pass.passTypeIdentifier), .text(pass.serialNumber), .text(pass.authenticationToken), .text(pass.template),
            .text(pass.dataJSON), .integer(pass.voided ? 1 : 0), .integer(pass.updateTag),
            .integer(Int64(pass.updatedAt.timeIntervalSince1970)),
            pass.templateVersion.map(SQLiteConnection.Value.text) ?? .null,
        ]
    }

    static let selectPass = "SELECT \(passColumns) FROM passes WHERE pass_type_id = ? AND serial_number = ?"

    static func pass(_ row: SQLiteConnection.Row) -> StoredPass {
        StoredPass(
            passTypeIdentifier: row.text(0) ?? "", serialNumber: row.text(1) ?? "", authenticationToken: row.text(2) ?? "",
            template: row.text(3) ?? "", dataJSON: row.text(4) ?? "{}", voided: row.integer(5) != 0, updateTag: row.integer(6),
            updatedAt: Date(timeIntervalSince1970: TimeInterval(row.integer(7))), lastPushJSON: row.text(8),
            personalizationJSON: row.text(9),
            erasedAt: row.optionalInteger(10).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }, templateVersion: row.text(11))
    }

    /// The columns a version changes, in the order of ``updatePass``, then the key.
    static func versionValues(_ pass: StoredPass) -> [SQLiteConnection.Value] {
        [
            .text(pass.dataJSON), .integer(pass.voided ? 1 : 0), pass.personalizationJSON.map(SQLiteConnection.Value.text) ?? .null,
            .integer(pass.updateTag), .integer(Int64(pass.updatedAt.timeIntervalSince1970)),
            pass.erasedAt.map { .integer(PassEvent.milliseconds($0)) } ?? .null,
            pass.templateVersion.map(SQLiteConnection.Value.text) ?? .null, .text(pass.passTypeIdentifier), .text(pass.serialNumber),
        ]
    }

    static let updatePass = """
        UPDATE passes SET data = ?, voided = ?, personalization = ?, update_tag = ?, updated_at = ?, erased_at = ?,
            template_version = ?
        WHERE pass_type_id = ? AND serial_number = ?
        """

    /// Takes the next value of the store-wide tag counter.
    static func nextTag(_ db: SQLiteConnection) throws -> Int64 {
        var tag: Int64 = 0
        try db.query("UPDATE counters SET value = value + 1 WHERE name = 'update_tag' RETURNING value") { tag = $0.integer(0) }
        return tag
    }

    /// Removes the device when it has no registration left.
    static let removeDeviceWithoutRegistrations = """
        DELETE FROM devices WHERE device_library_id = ? AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_id = ?)
        """
}

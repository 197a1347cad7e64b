public import Foundation

/// Lazy issuing's bulk insert and the content-addressed images.
extension SQLitePassStore {
    public func insert(_ passes: [StoredPass], images: [StoredImage]) async throws -> [BulkInsertOutcome] {
        guard !passes.isEmpty || !images.isEmpty else { return [] }
        return try await writer.write { db in
            try self.storeImages(db, images)
            // One counter update for the whole chunk: the passes take consecutive tags.
            var last: Int64 = 0
            try db.query(
                "UPDATE counters SET value = value + ? WHERE name = 'update_tag' RETURNING value", [.integer(Int64(passes.count))]
            ) { last = $0.integer(0) }
            var tag = last - Int64(passes.count)
            let now = self.clock()
            var outcomes: [BulkInsertOutcome] = []
            outcomes.reserveCapacity(passes.count)
            for pass in passes {
                tag += 1
                let stored = pass.firstVersion(tag: tag, now: now)
                try db.query(
                    "INSERT INTO passes (\(SQLiteSchema.passColumns)) VALUES \(SQLiteSchema.newPassPlaceholders) ON CONFLICT DO NOTHING",
                    SQLiteSchema.newPassValues(stored))
                if db.changes > 0 {
                    outcomes.append(.inserted)
                    try Self.insertEvents(
                        db,
                        [
                            PassEvent(
                                kind: .issued, passTypeIdentifier: stored.passTypeIdentifier, serialNumber: stored.serialNumber,
                                template: stored.template, at: now)
                        ])
                } else {
                    let existing = try Self.pass(db, pass.passTypeIdentifier, pass.serialNumber)
                    outcomes.append(.existed(authenticationToken: existing?.authenticationToken ?? ""))
                }
            }
            return outcomes
        }
    }

    func storeImages(_ db: SQLiteConnection, _ images: [StoredImage]) throws {
        let now = PassEvent.milliseconds(clock())
        for image in images {
            // Stored again: the time moves, so a prune running beside this write (pruneImages) leaves it.
            try db.query(
                "INSERT INTO images (sha256, bytes, stored_at) VALUES (?, ?, ?) ON CONFLICT (sha256) DO UPDATE SET stored_at = excluded.stored_at",
                [.text(image.sha256), .blob(image.bytes), .integer(now)])
        }
    }

    public func pruneImages(storedBefore: Date) async throws -> Int {
        try await writer.write { db in
            var candidates: Set<String> = []
            try db.query("SELECT sha256 FROM images WHERE stored_at < ?", [.integer(PassEvent.milliseconds(storedBefore))]) {
                candidates.insert($0.text(0) ?? "")
            }
            guard !candidates.isEmpty else { return 0 }
            // The single writer holds the file: no pass can come to name a candidate while this reads them all.
            try db.query("SELECT data FROM passes WHERE data LIKE '%sha256:%'") { row in
                for sha256 in StoredImage.named(in: row.text(0) ?? "") { candidates.remove(sha256) }
            }
            for sha256 in candidates { try db.query("DELETE FROM images WHERE sha256 = ?", [.text(sha256)]) }
            return candidates.count
        }
    }

    public func image(sha256: String) async throws -> [UInt8]? {
        try read { db in
            var bytes: [UInt8]?
            try db.query("SELECT bytes FROM images WHERE sha256 = ?", [.text(sha256)]) { bytes = $0.blob(0) }
            return bytes
        }
    }
}

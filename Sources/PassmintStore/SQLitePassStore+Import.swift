import Foundation

/// Lazy issuing's bulk insert and the content-addressed images.
extension SQLitePassStore {
    public func insert(_ passes: [StoredPass], images: [StoredImage]) async throws -> [BulkInsertOutcome] {
        guard !passes.isEmpty || !images.isEmpty else { return [] }
        return try await writer.write { db in
            try Self.storeImages(db, images)
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
                    "INSERT INTO passes (\(SQLiteSchema.passColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT DO NOTHING",
                    [
                        .text(stored.passTypeIdentifier), .text(stored.serialNumber), .text(stored.authenticationToken),
                        .text(stored.template), .text(stored.dataJSON), .integer(stored.voided ? 1 : 0), .integer(stored.updateTag),
                        .integer(Int64(stored.updatedAt.timeIntervalSince1970)),
                    ])
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

    static func storeImages(_ db: SQLiteConnection, _ images: [StoredImage]) throws {
        for image in images {
            try db.query("INSERT OR IGNORE INTO images (sha256, bytes) VALUES (?, ?)", [.text(image.sha256), .blob(image.bytes)])
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

public import Foundation

/// Where the service keeps passes, devices and registrations. Two real backends: ``SQLitePassStore`` (the
/// embedded default) and `PostgresPassStore` (for a fleet of service nodes). Every method that returns has
/// committed durably. The rules both follow when a pass changes (``PassEdit``, ``StoredPass/nextVersion(tag:now:)``)
/// are written once, in this module.
public protocol PassStore: WebhookStore, IdempotencyStore, PaymentStore, JobStore, TemplateVersionStore {
    /// Creates or upgrades the schema (named, forward-only migrations).
    func migrate() async throws
    /// Returns when the store answers a trivial query; throws when it cannot be reached.
    func ping() async throws
    /// Whether `error`, thrown by this store, means it is out of reach (a dropped or refused connection, a server
    /// shutting down) rather than a problem with the request: the service then answers 503 with `Retry-After`.
    func isOutage(_ error: any Error) -> Bool
    /// Whether the store's probe last found it answering (``reachabilityChanged(reachable:)``): `/ready`, the service's
    /// 503s and its queues read it here, the one record of it. A store without connections to lose (SQLite) always is.
    var isReachable: Bool { get }
    /// Records what the store's probe found: out of reach (`false`) or answering (`true`); true when that changed. Out
    /// of reach, a store with a connection pool fails its calls at once instead of queueing them for a connection (a
    /// node stopping during an outage stops at once; the probe's own connection tells when it is back); back, it
    /// replaces the pool of the outage, whose retries back off up to a minute, so requests are served at once.
    @discardableResult
    func reachabilityChanged(reachable: Bool) -> Bool
    /// How the store's connections are used now, for `/metrics`; nil for a store without a pool (SQLite).
    var connectionUse: StoreConnectionUse? { get }

    /// Records newly issued passes (one, or every pass of a multi-ticket order) and the images they name in one write
    /// transaction, all or none: each takes a new tag (on PostgreSQL the transaction's, shared by the order's passes) and
    /// a date (``StoredPass/firstVersion(tag:now:)``). When a
    /// serial exists already, nothing is stored and it throws `.duplicate` naming that pass (``PassStoreError/passKey``).
    /// With `payment`, the passes are what that payment bought: the same transaction marks it `issued` (naming the
    /// first pass), and nothing is stored (`.stale`) unless the payment is `approved` under the settlement's claim.
    func insert(order passes: [StoredPass], images: [StoredImage], payment: PaymentSettlement?) async throws -> [StoredPass]

    /// Records many new passes and the images they use in one write transaction (an import of a member list): each
    /// pass takes a new tag (on PostgreSQL the transaction's, shared by the chunk), a serial stored already is left as it
    /// is. Images are stored once per SHA-256.
    func insert(_ passes: [StoredPass], images: [StoredImage]) async throws -> [BulkInsertOutcome]

    /// An image's bytes by the lowercase hex SHA-256 of its bytes; nil when it is not stored.
    func image(sha256: String) async throws -> [UInt8]?
    /// Deletes the per-pass images no stored pass names any more that were last stored before `storedBefore` (an
    /// image stored again, by a change committing beside the prune, is younger and stays); the number deleted.
    func pruneImages(storedBefore: Date) async throws -> Int

    func pass(passTypeIdentifier: String, serialNumber: String) async throws -> StoredPass?

    /// The stored passes of `keys` (one read for all where the store can: a bulk update reads a chunk's passes at
    /// once); a key with no pass is left out.
    func passes(_ keys: [PassKey]) async throws -> [PassKey: StoredPass]

    /// Applies `edit` to a pass in one write transaction: reads it locked, applies the edit
    /// (``PassEdit/applied(to:basedOn:)``: with `basedOn`, throws `.stale` when the pass is no longer at that tag),
    /// stores the edit's images, gives the edited pass its next version (``StoredPass/nextVersion(tag:now:)``) and
    /// writes it, reads the devices registered for it, and owes each of their push tokens a push (``Owed`` ``PushTarget``,
    /// coalesced per token and pass type), and its Google Wallet object a patch when Google holds one
    /// (``Owed`` ``PassKey``). When the edit leaves the pass as it is, nothing is written. Nil when the
    /// pass does not exist.
    func change(passTypeIdentifier: String, serialNumber: String, _ edit: PassEdit, basedOn: Int64?) async throws -> PassChange?

    /// Registers a device (storing or updating its push token) for a pass. `recordsEvents` false: the registration
    /// writes no event (`installed`, `registered`) and does not count as the pass's install (`serve --self-check`'s own
    /// device, which must leave no trace in the statistics).
    func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, recordsEvents: Bool
    ) async throws -> RegistrationResult

    /// Removes a registration, and the device when it has none left. True when a registration was removed.
    /// `recordsEvents` false: no `unregistered` event for it (the pair of a registration made without events).
    func unregister(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String, recordsEvents: Bool
    ) async throws -> Bool

    /// Passes of a type this device registered for that changed after `updatedSince` (all when nil).
    func updatedSerials(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) async throws -> UpdatedSerials

    /// The devices registered for a pass.
    func registrations(passTypeIdentifier: String, serialNumber: String) async throws -> [DeviceRegistration]

    /// Claims up to `limit` owed pushes that are due and not claimed by another pusher, for `lease` (after which a
    /// pusher that died holding them loses them to the others). Several service nodes may claim at once: each push
    /// goes to one of them.
    func claimPushes(limit: Int, lease: Duration) async throws -> [Owed<PushTarget>]

    /// Writes what became of claimed pushes, in one transaction: done ones leave the outbox, retried ones are
    /// `push.failed` events, given-up ones (the token is gone) lose their registrations, devices and what they are
    /// owed; each note is kept as the push's last result.
    func settlePushes(_ settlement: OutboxSettlement<PushTarget>) async throws

    /// How many rows `outbox` owes, how many are due, and since when.
    func outboxStatus(_ outbox: Outbox) async throws -> OutboxStatus

    /// Notes that Google Wallet holds the pass's object as of `updateTag`: from then on every change owes the object a
    /// patch (an ``Outbox/googleObject`` row, in the change's transaction), and one is owed at once when the pass changed since
    /// `updateTag`. `objectID` is the object's id at Google, by which its callbacks name it.
    func noteGoogleObject(passTypeIdentifier: String, serialNumber: String, objectID: String, updateTag: Int64) async throws

    /// Records a verified save/delete callback in one transaction: its nonce (once: a nonce recorded before records
    /// nothing more, also when two nodes get the same callback at once) and its event for the pass whose Google object
    /// it names (which reaches the statistics and the webhooks like every event).
    func recordGoogleCallback(_ callback: GoogleCallbackRecord) async throws -> GoogleCallbackOutcome

    /// Claims up to `limit` owed Google patches that are due and not claimed by another worker, for `lease`.
    func claimGoogleUpdates(limit: Int, lease: Duration) async throws -> [Owed<PassKey>]

    /// Writes what became of claimed Google patches, in one transaction.
    func settleGoogleUpdates(_ settlement: OutboxSettlement<PassKey>) async throws

    /// Where the pass's Google Wallet object stands; nil when no link to it was ever made.
    func googleObjectState(passTypeIdentifier: String, serialNumber: String) async throws -> GoogleObjectState?

    /// Where the push stands for each device registered for a pass.
    func pushStates(passTypeIdentifier: String, serialNumber: String) async throws -> [DevicePushState]

    /// The passes issued from `template`, in key order, `limit` at a time after `after` (from the start when nil):
    /// what a template-wide change walks through.
    func passKeys(template: String, after: PassKey?, limit: Int) async throws -> [PassKey]

    /// Records events that change nothing else (a link opened, a pass downloaded or fetched). Events caused by a
    /// change (issued, installed, removed, updated, a failed push, a dead token) are written by that change, in its
    /// transaction; devices are named only by a salted hash (``PassEvent/deviceHash``).
    func record(_ events: [PassEvent]) async throws

    /// The events kept from `from` (included) to `to` (excluded), oldest first, at most `limit`.
    func events(from: Date, to: Date, limit: Int) async throws -> [PassEvent]

    /// Adds the events before the start of `before`'s day (UTC) to the daily aggregates and deletes them; the number
    /// deleted. Counts (``eventCounts(_:)``) stay as they were, at a day's resolution for those days.
    func pruneEvents(before: Date) async throws -> Int

    /// Events counted per kind and bucket, from the events kept and the daily aggregates.
    func eventCounts(_ query: EventCountQuery) async throws -> [EventCount]

    /// Passes on at least one device now (of a template, of a pass type; nil: all), and how many devices they are on.
    func deviceCounts(template: String?, passTypeIdentifier: String?) async throws -> DeviceCounts

    /// A number that changes after every commit, read before a query and compared after it; nil while the store
    /// cannot tell when others change it. The service caches reads only while it stays the same. The SQLite store
    /// bumps it after its own commits (before they are acknowledged) and when it sees another process's commit (see
    /// ``SQLitePassStore``); the PostgreSQL store after its own commits, on every pass change another node announces,
    /// and when the server's WAL position moves (every commit of any node).
    var changeGeneration: UInt64? { get }

    /// A number that changes after every commit that writes a pass row (and may change after others), read and
    /// compared like ``changeGeneration``; the service caches the pass rows devices fetch only while it stays the same.
    /// It never moves without ``changeGeneration`` moving too. The PostgreSQL store moves it on the commits that write
    /// `passes` only, so registrations and push settlements leave cached pass rows in place; by default it is
    /// ``changeGeneration``.
    var passGeneration: UInt64? { get }
}

extension PassStore {
    public var changeGeneration: UInt64? { nil }

    /// Registers a device for a pass, with its events (every device but the self-check's).
    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String
    ) async throws -> RegistrationResult {
        try await register(
            deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken, passTypeIdentifier: passTypeIdentifier,
            serialNumber: serialNumber, recordsEvents: true)
    }

    /// Removes a registration, with its events.
    public func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String) async throws -> Bool {
        try await unregister(
            deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber,
            recordsEvents: true)
    }

    public var passGeneration: UInt64? { changeGeneration }

    /// One ``pass(passTypeIdentifier:serialNumber:)`` after another.
    public func passes(_ keys: [PassKey]) async throws -> [PassKey: StoredPass] {
        var found: [PassKey: StoredPass] = [:]
        for key in keys {
            found[key] = try await pass(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber)
        }
        return found
    }

    /// Records newly issued passes that no payment bought (``insert(order:images:payment:)``).
    public func insert(order passes: [StoredPass], images: [StoredImage]) async throws -> [StoredPass] {
        try await insert(order: passes, images: images, payment: nil)
    }

    /// Records a newly issued pass (``insert(order:images:)`` of one pass, without images).
    public func insert(_ pass: StoredPass) async throws -> StoredPass {
        let stored = try await insert(order: [pass], images: [])
        guard let first = stored.first else { throw PassStoreError(.database, "the store recorded nothing for \(pass.serialNumber)") }
        return first
    }

    /// Applies `edit` whatever version the pass is at (see ``change(passTypeIdentifier:serialNumber:_:basedOn:)``).
    public func change(passTypeIdentifier: String, serialNumber: String, _ edit: PassEdit) async throws -> PassChange? {
        try await change(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, edit, basedOn: nil)
    }

    /// Replaces a pass's data and voided flag (``PassEdit/update(dataJSON:voided:images:)``).
    public func update(passTypeIdentifier: String, serialNumber: String, dataJSON: String, voided: Bool) async throws -> PassChange? {
        try await change(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, .update(dataJSON: dataJSON, voided: voided))
    }

    /// Stores what a user gave when signing up (``PassEdit/personalize(personalizationJSON:)``): the first sign-up wins.
    public func personalize(passTypeIdentifier: String, serialNumber: String, personalizationJSON: String) async throws -> PassChange? {
        try await change(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, .personalize(personalizationJSON: personalizationJSON))
    }
}

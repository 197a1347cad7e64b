public import Foundation

/// A row an ``Outbox`` owes, claimed by its kind's worker for a lease: an Apple push (``PushTarget``), a Google
/// Wallet object patch (``PassKey``) or a webhook delivery (``WebhookDelivery``). The item's members read through
/// (`owed.pushToken`).
@dynamicMemberLookup
public struct Owed<Item: Sendable & Equatable>: Sendable, Equatable {
    public var item: Item
    /// Bumped by every change that owes a coalesced row again: a row settled for an older generation stays owed.
    /// Webhook deliveries are one row an event: 0.
    public var generation: Int64
    /// Failed attempts so far (for the back-off).
    public var attempts: Int
    /// When the oldest change still untold was committed (a webhook delivery: when its event happened).
    public var enqueuedAt: Date

    public init(_ item: Item, generation: Int64 = 0, attempts: Int, enqueuedAt: Date) {
        self.item = item
        self.generation = generation
        self.attempts = attempts
        self.enqueuedAt = enqueuedAt
    }

    public subscript<Value>(dynamicMember member: KeyPath<Item, Value>) -> Value { item[keyPath: member] }
}

extension Owed: Hashable where Item: Hashable {}

/// What became of the rows a worker claimed, written in one transaction by the store's `settle…`.
public struct OutboxSettlement<Item: Sendable & Equatable>: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Delivered: the row is done (a coalesced row a newer change owes again stays owed).
        case done
        /// To try again at the given time, one attempt more.
        case retry(at: Date)
        /// Never to be tried again: APNs says the push token is gone (its registrations, devices and what it is owed
        /// go), or a webhook delivery's retry window has passed (kept, failed, until replayed).
        case givenUp
    }

    /// One claimed row's outcome, with what the kind keeps of it: a push's result as JSON text (per push token and
    /// pass type, for the issuing API), a webhook delivery's error.
    public struct Row: Sendable {
        public var owed: Owed<Item>
        public var outcome: Outcome
        public var note: String?
    }

    public var rows: [Row] = []

    public init() {}

    /// A settlement giving every row in `owed` the same outcome.
    public init(_ owed: [Owed<Item>], _ outcome: Outcome) {
        rows = owed.map { Row(owed: $0, outcome: outcome, note: nil) }
    }

    public mutating func add(_ owed: Owed<Item>, _ outcome: Outcome, note: String? = nil) {
        rows.append(Row(owed: owed, outcome: outcome, note: note))
    }

    /// The rows done.
    public var done: [Owed<Item>] { rows.filter { $0.outcome == .done }.map(\.owed) }
    /// The rows to retry, with when.
    public var retry: [(owed: Owed<Item>, at: Date)] {
        rows.compactMap { row in
            guard case .retry(let at) = row.outcome else { return nil }
            return (row.owed, at)
        }
    }
    /// The rows given up.
    public var givenUp: [Owed<Item>] { rows.filter { $0.outcome == .givenUp }.map(\.owed) }
}

/// Where a push goes: a device's push token, for the passes (or orders) of a type that changed.
public struct PushTarget: Sendable, Hashable {
    public var pushToken: String
    public var passTypeIdentifier: String

    public init(pushToken: String, passTypeIdentifier: String) {
        self.pushToken = pushToken
        self.passTypeIdentifier = passTypeIdentifier
    }
}

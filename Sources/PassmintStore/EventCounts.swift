public import Foundation

/// What the statistics ask the store: events counted per interval (``PassStore/eventCounts(_:)``).
public struct EventCountQuery: Sendable, Equatable {
    /// The first instant counted.
    public var from: Date
    /// The first instant not counted.
    public var to: Date
    /// The length of a bucket in milliseconds (buckets start at multiples of it since 1970, UTC). Days already pruned
    /// into daily aggregates fall whole into the bucket of their start.
    public var intervalMilliseconds: Int64
    /// Only passes of this template, of this pass type (nil: all).
    public var template: String?
    public var passTypeIdentifier: String?

    public init(from: Date, to: Date, intervalMilliseconds: Int64, template: String? = nil, passTypeIdentifier: String? = nil) {
        self.from = from
        self.to = to
        self.intervalMilliseconds = intervalMilliseconds
        self.template = template
        self.passTypeIdentifier = passTypeIdentifier
    }
}

/// How many events of a kind fell into one bucket.
public struct EventCount: Sendable, Equatable {
    /// The bucket's start.
    public var start: Date
    public var kind: PassEventKind
    public var count: Int
    /// Of ``PassEventKind/fetched`` events: those within an hour, and within a day, of the change they fetched.
    public var withinHour: Int
    public var withinDay: Int

    public init(start: Date, kind: PassEventKind, count: Int, withinHour: Int = 0, withinDay: Int = 0) {
        self.start = start
        self.kind = kind
        self.count = count
        self.withinHour = withinHour
        self.withinDay = withinDay
    }
}

/// Passes registered on at least one device now, and the devices they are on.
public struct DeviceCounts: Sendable, Equatable {
    public var passes: Int
    public var devices: Int

    public init(passes: Int, devices: Int) {
        self.passes = passes
        self.devices = devices
    }
}

extension PassEvent {
    /// Milliseconds since 1970, as both stores keep every time (events, leases, jobs, payments…), and back.
    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    package static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    /// A day in milliseconds: the resolution of the aggregates that outlive pruning.
    package static let dayMilliseconds: Int64 = 86_400_000
}

package import Foundation
package import PassmintStore

/// Install and removal statistics: the store's events counted per day or hour (`PassStore.eventCounts(_:)`), with
/// the passes active and the devices on them at the end of each interval (added minus lost, since the first event), and
/// the devices per pass now.
package struct StatsService: Sendable {
    /// The length of an interval.
    package enum Interval: String, Sendable, CaseIterable {
        case day, hour
        var milliseconds: Int64 { self == .day ? 86_400_000 : 3_600_000 }
    }

    /// What to count: `from` and `to` are rounded out to whole intervals (UTC).
    package struct Query: Sendable, Equatable {
        package var from: Date
        package var to: Date
        package var interval: Interval
        package var template: String?
        package var passTypeIdentifier: String?

        package init(from: Date, to: Date, interval: Interval, template: String? = nil, passTypeIdentifier: String? = nil) {
            self.from = from
            self.to = to
            self.interval = interval
            self.template = template
            self.passTypeIdentifier = passTypeIdentifier
        }
    }

    /// One interval's counts.
    package struct Row: Sendable, Equatable {
        package var start: Date
        package var issued = 0
        package var linkViews = 0
        package var downloads = 0
        package var installs = 0
        package var removals = 0
        /// Passes on at least one device at the end of the interval.
        package var activePasses = 0
        /// Devices on those passes at the end of the interval (a device with two passes counts twice).
        package var devices = 0
        /// Devices per active pass at the end of the interval (0 when none is active).
        package var devicesPerPass: Double { activePasses == 0 ? 0 : Double(devices) / Double(activePasses) }
        package var updates = 0
        package var fetched = 0
        /// Fetches of a new version within an hour, and within 24 hours, of the change that made it.
        package var fetchedWithin1h = 0
        package var fetchedWithin24h = 0
        package var pushFailures = 0
        package var deadTokens = 0
        /// Devices added to passes in the interval (`installed` and `registered`), and lost (`unregistered` and
        /// `token.dead`).
        var devicesAdded = 0
        var devicesLost = 0
        /// Google Wallet objects saved and deleted by their users (Google's callbacks).
        package var googleSaves = 0
        package var googleRemovals = 0

        package init(start: Date) { self.start = start }
    }

    /// The answer: a row per interval, and the devices per pass now.
    package struct Report: Sendable, Equatable {
        package var query: Query
        package var rows: [Row]
        package var devices: DeviceCounts
        /// Devices per pass on at least one device, now (0 when none is).
        package var devicesPerPass: Double { devices.passes == 0 ? 0 : Double(devices.devices) / Double(devices.passes) }
    }

    /// The most intervals one query may span.
    package static let maximumIntervals = 5000

    let store: any PassStore
    let clock: @Sendable () -> Date

    /// The default query: the last 30 days, a row per day.
    package func defaultQuery() -> Query {
        let now = clock()
        return Query(from: now.addingTimeInterval(-30 * 86_400), to: now, interval: .day)
    }

    package func report(_ query: Query) async throws -> Report {
        let step = query.interval.milliseconds
        let first = PassEvent.milliseconds(query.from) / step * step
        let end = (PassEvent.milliseconds(query.to) + step - 1) / step * step
        guard end > first else { throw ServiceFailure.badRequest("from must be before to") }
        guard (end - first) / step <= Int64(Self.maximumIntervals) else {
            throw ServiceFailure.badRequest(
                "from … to spans \((end - first) / step) \(query.interval.rawValue)s; ask for at most \(Self.maximumIntervals) (a shorter range, or interval=day)"
            )
        }
        let start = PassEvent.date(milliseconds: first)
        func counts(from: Date, to: Date, interval: Int64) async throws -> [EventCount] {
            try await store.eventCounts(
                EventCountQuery(
                    from: from, to: to, intervalMilliseconds: interval, template: query.template,
                    passTypeIdentifier: query.passTypeIdentifier))
        }
        // Everything before the first interval, in one bucket: where the active passes start from.
        let before = try await counts(from: Date(timeIntervalSince1970: 0), to: start, interval: 1 << 60)
        var earlier = Row(start: start)
        for count in before { earlier.add(count) }
        var (active, devices) = (earlier.installs - earlier.removals, earlier.devicesAdded - earlier.devicesLost)
        var byStart: [Int64: [EventCount]] = [:]
        for count in try await counts(from: start, to: PassEvent.date(milliseconds: end), interval: step) {
            byStart[PassEvent.milliseconds(count.start), default: []].append(count)
        }
        var rows: [Row] = []
        for bucket in stride(from: first, to: end, by: Int(step)) {
            var row = Row(start: PassEvent.date(milliseconds: bucket))
            for count in byStart[bucket] ?? [] { row.add(count) }
            active += row.installs - row.removals
            devices += row.devicesAdded - row.devicesLost
            (row.activePasses, row.devices) = (active, devices)
            rows.append(row)
        }
        let now = try await store.deviceCounts(template: query.template, passTypeIdentifier: query.passTypeIdentifier)
        return Report(query: query, rows: rows, devices: now)
    }
}

extension StatsService.Row {
    mutating func add(_ count: EventCount) {
        switch count.kind {
        case .issued: issued += count.count
        case .linkViewed: linkViews += count.count
        case .downloaded: downloads += count.count
        case .installed:
            installs += count.count
            devicesAdded += count.count
        case .registered: devicesAdded += count.count
        case .unregistered: devicesLost += count.count
        case .removed: removals += count.count
        case .updated: updates += count.count
        case .fetched:
            fetched += count.count
            fetchedWithin1h += count.withinHour
            fetchedWithin24h += count.withinDay
        case .pushFailed: pushFailures += count.count
        case .tokenDead:
            deadTokens += count.count
            devicesLost += count.count
        case .googleSaved: googleSaves += count.count
        case .googleRemoved: googleRemovals += count.count
        }
    }
}

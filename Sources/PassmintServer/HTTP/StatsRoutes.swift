import Foundation
import Hummingbird
import Passmint
import PassmintStore

/// `GET /api/v1/stats?from=&to=&template=&passType=&interval=day|hour`: install and removal statistics
/// (``StatsService``), as JSON, or as CSV when the request accepts `text/csv`. The JSON also holds this node's push
/// outcomes since it started (`pushes`), its fast-path answers and the device logs it keeps.
struct StatsRoutes {
    let core: ServiceCore

    /// Adds the route to `api`, the `/api/v1` group behind ``APIKeyMiddleware`` (``buildRouter(core:)``).
    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.getAndHead("stats") { request, _ in
            let report = try await core.stats.report(try Self.query(request.uri.queryParameters, defaults: core.stats.defaultQuery()))
            if request.headers[.accept]?.contains("text/csv") == true {
                return RouteSupport.bytes(Array(Self.csv(report).utf8), type: "text/csv; charset=utf-8")
            }
            var json = Self.json(report)
            for member in process() { json[member.key] = member.value }
            return RouteSupport.json(.ok, .object(json))
        }
    }

    /// This node's counters since it started.
    private func process() -> JSONObject {
        let pushes = core.pushQueue.statistics
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        return [
            "pushes": [
                "updates": number(pushes.updates), "devices": number(pushes.devices), "delivered": number(pushes.delivered),
                "unregistered": number(pushes.unregistered), "failed": number(pushes.failed), "attempts": number(pushes.attempts),
            ],
            "fastPathAnswers": number(core.deviceReads.fastPathAnswers),
            "deviceLogsKept": number(core.deviceLogs.recent.count),
        ]
    }

    /// A date of the query: an ISO 8601 date-time (`2026-11-01T00:00:00Z`) or a day (`2026-11-01`, UTC).
    /// A `from` or `to` parameter: a time, or a day (UTC). A day as `to` includes that day: `from=D&to=D` is day D.
    /// A day that does not exist (2026-02-30) is refused, not moved to the next month.
    static func date(_ name: String, _ text: String) throws(ServiceFailure) -> Date {
        let refused = ServiceFailure.badRequest("\(name)=\(text) is not a date: give 2026-11-01 or 2026-11-01T00:00:00Z")
        let day = text.count == 10 ? text : String(text.prefix { $0 != "T" && $0 != "t" })
        let parts = day.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let dayOfMonth = parts[2], day.count == 10,
            (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(dayOfMonth)
        else { throw refused }
        if text.count == 10, let date = try? Date(text + "T00:00:00Z", strategy: Date.ISO8601FormatStyle()) {
            return name == "to" ? date.addingTimeInterval(86_400) : date
        }
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) else { throw refused }
        return date
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func query(_ parameters: Parameters, defaults: StatsService.Query) throws(ServiceFailure) -> StatsService.Query {
        var query = defaults
        if let text = parameters.get("interval") {
            guard let interval = StatsService.Interval(rawValue: text) else {
                throw .badRequest("interval=\(text) is not an interval: give day or hour")
            }
            query.interval = interval
        }
        if let text = parameters.get("to") { query.to = try date("to", text) }
        if let text = parameters.get("from") {
            query.from = try date("from", text)
        } else if parameters.get("to") != nil {
            query.from = query.to.addingTimeInterval(-30 * 86_400)
        }
        query.template = parameters.get("template").flatMap { $0.isEmpty ? nil : $0 }
        query.passTypeIdentifier = parameters.get("passType").flatMap { $0.isEmpty ? nil : $0 }
        return query
    }

    /// The columns of a row, in the order of the CSV.
    static var columns: [(name: String, value: (StatsService.Row) -> JSONNumber)] {
        func count(_ name: String, _ value: KeyPath<StatsService.Row, Int>) -> (String, (StatsService.Row) -> JSONNumber) {
            (name, { JSONNumber($0[keyPath: value]) })
        }
        return [
            count("issued", \.issued), count("linkViews", \.linkViews), count("downloads", \.downloads), count("installs", \.installs),
            count("removals", \.removals), count("activePasses", \.activePasses), count("devices", \.devices),
            ("devicesPerPass", { JSONNumber(($0.devicesPerPass * 100).rounded() / 100) }), count("updates", \.updates),
            count("fetched", \.fetched), count("fetchedWithin1h", \.fetchedWithin1h), count("fetchedWithin24h", \.fetchedWithin24h),
            count("pushFailures", \.pushFailures), count("deadTokens", \.deadTokens), count("googleSaves", \.googleSaves),
            count("googleRemovals", \.googleRemovals),
        ]
    }

    static func timestamp(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }

    static func json(_ report: StatsService.Report) -> JSONObject {
        let rows: [JSONValue] = report.rows.map { row in
            var object = JSONObject()
            object["start"] = .string(timestamp(row.start))
            for column in columns { object[column.name] = .number(column.value(row)) }
            return .object(object)
        }
        let query = report.query
        return [
            "from": .string(timestamp(report.rows.first?.start ?? query.from)),
            "to": .string(
                timestamp(report.rows.last.map { $0.start.addingTimeInterval(query.interval == .day ? 86_400 : 3600) } ?? query.to)),
            "interval": .string(query.interval.rawValue), "template": query.template.map(JSONValue.string) ?? .null,
            "passType": query.passTypeIdentifier.map(JSONValue.string) ?? .null,
            "passesOnDevices": .number(JSONNumber(report.devices.passes)), "devices": .number(JSONNumber(report.devices.devices)),
            "devicesPerPass": .number(JSONNumber((report.devicesPerPass * 100).rounded() / 100)), "intervals": .array(rows),
        ]
    }

    static func csv(_ report: StatsService.Report) -> String {
        var text = (["start"] + columns.map(\.name)).joined(separator: ",") + "\r\n"
        for row in report.rows {
            text += ([timestamp(row.start)] + columns.map { $0.value(row).text }).joined(separator: ",") + "\r\n"
        }
        return text
    }
}

import Foundation
import PassmintPreview
import PassmintStore

/// The statistics dashboard (`/dashboard`): the install funnel, active passes over time, removals and a campaign's
/// reach, from the same ``StatsService/Report`` `GET /api/v1/stats` answers, drawn as inline SVG. Server-rendered, no
/// script, no request but the page itself (its policy allows inline styles only, and a GET form back to itself). Every
/// number has a `data-key` (its `.value` the figure), so a browser test reads what a person sees.
enum DashboardHTML {
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'"

    static func html(_ report: StatsService.Report) -> String {
        let rows = report.rows
        let total = { (value: (StatsService.Row) -> Int) in rows.reduce(0) { $0 + value($1) } }
        let funnel: [(key: String, label: String, value: Int)] = [
            ("funnel.issued", "Issued", total(\.issued)), ("funnel.linkViews", "Add page viewed", total(\.linkViews)),
            ("funnel.downloads", "Downloaded", total(\.downloads)), ("funnel.installs", "Installed", total(\.installs)),
            ("funnel.googleSaves", "Saved to Google Wallet", total(\.googleSaves)),
        ]
        let reach: [(key: String, label: String, value: Int)] = [
            ("reach.updates", "Changes", total(\.updates)), ("reach.fetched", "Fetched by devices", total(\.fetched)),
            ("reach.within1h", "Fetched within 1 h of the change", total(\.fetchedWithin1h)),
            ("reach.within24h", "Fetched within 24 h of the change", total(\.fetchedWithin24h)),
        ]
        let query = report.query
        let hourly = query.interval == .hour
        let labels = rows.map { label($0.start, hourly: hourly) }
        let scope = [query.template.map { "template \($0)" }, query.passTypeIdentifier.map { "pass type \($0)" }].compactMap { $0 }
        let range = "\(labels.first ?? "") – \(labels.last ?? "") (UTC)\(scope.isEmpty ? "" : ", " + scope.joined(separator: ", "))"
        let perInterval = rows.enumerated().map { index, row in
            let day = labels[index]
            return """
                <tr><th scope="row">\(day)</th>\
                <td data-key="installs.\(day)"><span class="value">\(DashboardCharts.figure(row.installs))</span></td>\
                <td data-key="removals.\(day)"><span class="value">\(DashboardCharts.figure(row.removals))</span></td>\
                <td data-key="active.\(day)"><span class="value">\(DashboardCharts.figure(row.activePasses))</span></td>\
                <td data-key="fetched.\(day)"><span class="value">\(DashboardCharts.figure(row.fetched))</span></td></tr>
                """
        }.joined(separator: "\n")
        return """
            \(PageHead.lines(title: "Passmint statistics"))
            <style>\(style)</style>
            </head>
            <body>
            <header><h1>Passmint statistics</h1><p id="range">\(escape(range))</p>
            \(form(query))
            </header>
            <main>
            <section id="funnel" aria-labelledby="funnel-title"><h2 id="funnel-title">Install funnel</h2>
            \(DashboardCharts.funnel(funnel.map { ($0.label, $0.value) }))
            \(figures(funnel))
            </section>
            <section id="active" aria-labelledby="active-title"><h2 id="active-title">Active passes</h2>
            <p>Passes on at least one device at the end of each \(query.interval.rawValue).</p>
            \(DashboardCharts.line(rows.map(\.activePasses), labels: labels, title: "Active passes per \(query.interval.rawValue)"))
            </section>
            <section id="removals" aria-labelledby="removals-title"><h2 id="removals-title">Removals</h2>
            \(DashboardCharts.bars(rows.map(\.removals), labels: labels, title: "Removals per \(query.interval.rawValue)"))
            \(figures([("removals.total", "Removed from their last device", total(\.removals))]))
            </section>
            <section id="reach" aria-labelledby="reach-title"><h2 id="reach-title">Campaign reach</h2>
            <p>How many devices fetched a change, and how soon.</p>
            \(DashboardCharts.funnel(reach.map { ($0.label, $0.value) }))
            \(figures(reach))
            \(figures([
                ("devices.passes", "Passes on a device now", report.devices.passes), ("devices.devices", "Devices now", report.devices.devices),
            ]))
            </section>
            <section id="table" aria-labelledby="table-title"><h2 id="table-title">Per \(query.interval.rawValue)</h2>
            <table><thead><tr><th scope="col">\(hourly ? "Hour" : "Day")</th><th scope="col">Installed</th><th scope="col">Removed</th>\
            <th scope="col">Active</th><th scope="col">Fetched</th></tr></thead>
            <tbody>
            \(perInterval)
            </tbody></table>
            </section>
            </main>
            </body>
            </html>
            """
    }

    /// Figures as a description list: each a `data-key` with its `.label` and `.value`.
    static func figures(_ items: [(key: String, label: String, value: Int)]) -> String {
        let entries = items.map { item in
            "<div class=\"figure\" data-key=\"\(item.key)\"><dt class=\"label\">\(escape(item.label))</dt><dd class=\"value\">\(DashboardCharts.figure(item.value))</dd></div>"
        }
        return "<dl class=\"figures\">\(entries.joined())</dl>"
    }

    /// The filter: the same parameters as `GET /api/v1/stats`.
    static func form(_ query: StatsService.Query) -> String {
        let day = { (date: Date) in String(date.formatted(Date.ISO8601FormatStyle()).prefix(10)) }
        let options = StatsService.Interval.allCases.map {
            "<option value=\"\($0.rawValue)\"\($0 == query.interval ? " selected" : "")>\($0.rawValue)</option>"
        }.joined()
        return """
            <form method="get" action="">\
            <label>From <input type="date" name="from" value="\(day(query.from))"></label> \
            <label>To <input type="date" name="to" value="\(day(query.to))"></label> \
            <label>Template <input name="template" value="\(escape(query.template ?? ""))"></label> \
            <label>Per <select name="interval">\(options)</select></label> \
            <button type="submit">Show</button></form>
            """
    }

    static func label(_ date: Date, hourly: Bool) -> String {
        let text = date.formatted(Date.ISO8601FormatStyle())
        return hourly ? String(text.prefix(16)).replacingOccurrences(of: "T", with: " ") : String(text.prefix(10))
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    static let style = """
        body{font:15px/1.4 system-ui,sans-serif;margin:0;color:#1c1c1e;background:#f5f5f7}
        header,main{max-width:960px;margin:0 auto;padding:16px}
        h1{font-size:24px;margin:8px 0}h2{font-size:18px;margin:0 0 8px}
        section{background:#fff;border-radius:12px;padding:16px;margin:0 0 16px}
        svg{width:100%;height:auto;display:block}
        .figures{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0 0}
        .figure{background:#f0f0f3;border-radius:8px;padding:8px 12px}
        .figure dt{font-size:13px;color:#555}.figure dd{margin:0;font-size:20px;font-weight:600}
        table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;text-align:right;border-bottom:1px solid #eee}
        th[scope=row]{text-align:left;font-weight:400}
        form label{margin-right:8px}
        """
}

import Foundation
import PassmintPreview

/// The dashboard's charts as inline SVG (no script, no font or image to fetch): horizontal bars for a funnel, vertical
/// bars and a line over intervals. Each chart has a title and each mark a `<title>` with its figure, for screen
/// readers and tooltips.
enum DashboardCharts {
    static let width = 640
    static let barColor = "#0a84ff"

    /// A figure as the dashboard shows it: thousands separated (`20,000`), so five digits and more read at a glance.
    static func figure(_ value: Int) -> String {
        value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    /// Room right of the longest bar for its figure: `9,999,999` at the chart's font size.
    static let figureRoom = 90

    /// Horizontal bars, one per step, widths relative to the largest.
    static func funnel(_ steps: [(label: String, value: Int)]) -> String {
        let largest = max(steps.map(\.value).max() ?? 0, 1)
        let row = 28
        let marks = steps.enumerated().map { index, step in
            let y = index * row
            let length = Double(width - 226 - figureRoom) * Double(step.value) / Double(largest)
            let label = HTMLText.escape(step.label)
            return """
                <text x="0" y="\(y + 18)" font-size="13">\(label)</text>\
                <rect x="220" y="\(y + 4)" width="\(String(format: "%.1f", length))" height="20" fill="\(barColor)">\
                <title>\(label): \(figure(step.value))</title></rect>\
                <text x="\(String(format: "%.1f", 226 + length))" y="\(y + 18)" font-size="13">\(figure(step.value))</text>
                """
        }
        return svg(height: steps.count * row, title: "Funnel", marks.joined(separator: "\n"))
    }

    /// Vertical bars, one per interval.
    static func bars(_ values: [Int], labels: [String], title: String) -> String {
        let height = 160
        let largest = max(values.max() ?? 0, 1)
        let slot = Double(width - 40) / Double(max(values.count, 1))
        let marks = values.enumerated().map { index, value in
            let barHeight = Double(height - 30) * Double(value) / Double(largest)
            let x = 40 + Double(index) * slot
            return """
                <rect x="\(String(format: "%.1f", x + slot * 0.1))" y="\(String(format: "%.1f", Double(height - 20) - barHeight))" \
                width="\(String(format: "%.1f", slot * 0.8))" height="\(String(format: "%.1f", barHeight))" fill="\(barColor)">\
                <title>\(HTMLText.escape(labels[index])): \(figure(value))</title></rect>
                """
        }
        return svg(height: height, title: title, axes(largest, labels: labels, height: height) + marks.joined(separator: "\n"))
    }

    /// A line through one point per interval.
    static func line(_ values: [Int], labels: [String], title: String) -> String {
        let height = 160
        let largest = max(values.max() ?? 0, 1)
        let slot = Double(width - 40) / Double(max(values.count, 1))
        let points = values.enumerated().map { index, value in
            (x: 40 + slot * (Double(index) + 0.5), y: Double(height - 20) - Double(height - 30) * Double(value) / Double(largest))
        }
        let path = points.map { String(format: "%.1f,%.1f", $0.x, $0.y) }.joined(separator: " ")
        let dots = zip(points, zip(values, labels)).map { point, item in
            """
            <circle cx="\(String(format: "%.1f", point.x))" cy="\(String(format: "%.1f", point.y))" r="3" fill="\(barColor)">\
            <title>\(HTMLText.escape(item.1)): \(item.0)</title></circle>
            """
        }
        let marks =
            "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(barColor)\" stroke-width=\"2\"/>\n" + dots.joined(separator: "\n")
        return svg(height: height, title: title, axes(largest, labels: labels, height: height) + marks)
    }

    /// The largest value at the top left, the first and last interval under the axis.
    private static func axes(_ largest: Int, labels: [String], height: Int) -> String {
        """
        <line x1="40" y1="\(height - 20)" x2="\(width)" y2="\(height - 20)" stroke="#999"/>\
        <text x="0" y="14" font-size="12">\(largest.formatted(.number.notation(.compactName).locale(Locale(identifier: "en_US"))))</text>\
        <text x="0" y="\(height - 22)" font-size="12">0</text>\
        <text x="40" y="\(height - 4)" font-size="12">\(HTMLText.escape(labels.first ?? ""))</text>\
        <text x="\(width)" y="\(height - 4)" font-size="12" text-anchor="end">\(HTMLText.escape(labels.last ?? ""))</text>

        """
    }

    private static func svg(height: Int, title: String, _ body: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(max(height, 1))" role="img" aria-label="\(HTMLText.escape(title))">\
        <title>\(HTMLText.escape(title))</title>
        \(body)
        </svg>
        """
    }
}

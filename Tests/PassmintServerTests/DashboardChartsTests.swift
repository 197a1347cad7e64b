import Foundation
import Testing

@testable import PassmintServer

/// The dashboard's figures read at a glance and fit their chart (issue 39: 20000 was clipped to "2000").
@Suite struct DashboardChartsTests {
    @Test func figuresAreGroupedAndTheLongestBarLeavesRoomForItsFigure() throws {
        #expect(DashboardCharts.figure(20_000) == "20,000")
        #expect(DashboardCharts.figure(7) == "7" && DashboardCharts.figure(1_234_567) == "1,234,567")
        let svg = DashboardCharts.funnel([("Links viewed", 1_234_567), ("Installed", 20_000)])
        // The figure after the longest bar starts where the bar ends, 6 px on; at 13 px, a digit or comma is at most
        // 8 px wide: the text must end inside the chart.
        let pattern = /<text x="([0-9.]+)" y="[0-9]+" font-size="13">1,234,567<\/text>/
        let match = try #require(svg.firstMatch(of: pattern))
        let start = try #require(Double(match.1))
        #expect(start + 9 * 8 <= Double(DashboardCharts.width), "\(start)")
    }
}

import Foundation
import Passmint
import PassmintBatch
import Synchronization

/// Progress on stderr: a live bar on a terminal, a plain line every few seconds otherwise.
final class ProgressDisplay: Sendable {
    enum Mode { case silent, terminal, lines }
    let mode: Mode
    let total: Int?
    /// When the last line was drawn (seconds into the run); updates may come from several threads.
    private let last = Mutex(0.0)

    init(mode: Mode, total: Int?) {
        self.mode = mode
        self.total = total
    }

    func update(_ progress: BatchProgress) {
        switch mode {
        case .silent: return
        case .terminal:
            guard due(progress, every: 0.1) else { return }
            printError("\r\u{1B}[2K" + line(progress), terminator: "")
        case .lines:
            guard due(progress, every: 5) else { return }
            printError(line(progress))
        }
    }

    /// Whether `interval` seconds have passed since the last line; if so, this one is the last from now on.
    private func due(_ progress: BatchProgress, every interval: Double) -> Bool {
        last.withLock { last in
            guard progress.elapsed - last >= interval else { return false }
            last = progress.elapsed
            return true
        }
    }

    private func line(_ progress: BatchProgress) -> String {
        let rate = progress.elapsed > 0 ? Double(progress.rows) / progress.elapsed : 0
        var bar = ""
        if let total, total > 0 {
            let fraction = min(1, Double(progress.rows) / Double(total))
            let filled = Int(fraction * 24)
            let remaining = rate > 0 ? Double(max(0, total - progress.rows)) / rate : 0
            bar =
                "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "] "
                + "\(Int(fraction * 100))% · ETA \(Self.duration(remaining)) · "
        }
        return bar
            + "\(progress.rows) rows · \(progress.recorded > 0 ? "\(progress.recorded) recorded" : "\(progress.issued) issued") · \(progress.existing) kept · \(progress.failed) failed · \(Int(rate)) rows/s · \(String(format: "%.1f", progress.elapsed)) s"
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600 ? "\(whole / 3600)h\(whole % 3600 / 60)m" : whole >= 60 ? "\(whole / 60)m\(whole % 60)s" : "\(whole)s"
    }

    func finish(_ progress: BatchProgress) {
        guard mode != .silent else { return }
        if mode == .terminal { printError("\r\u{1B}[2K", terminator: "") }
        printError(
            "\(progress.stopped ? "stopped" : "done"): " + line(progress)
                + " · \(progress.issued > 0 ? "\(Int(progress.passesPerSecond)) passes/s" : "")")
    }
}

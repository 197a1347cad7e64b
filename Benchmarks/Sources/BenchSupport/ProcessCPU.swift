import Foundation

/// The CPU time a process has used so far (user and system, `/proc/<pid>/stat`), in seconds: the difference of two
/// readings is what the process spent between them, whatever else shared the cores.
public enum ProcessCPU {
    /// The CPU seconds of process `pid`, or of this process when `pid` is nil; nil when `/proc` cannot be read.
    public static func seconds(_ pid: Int32? = nil) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid.map(String.init) ?? "self")/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name in parentheses: state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The CPU seconds `pid` (or this process) spent since the reading `before`; nil when either is missing.
    public static func since(_ before: Double?, _ pid: Int32? = nil) -> Double? {
        guard let before, let now = seconds(pid) else { return nil }
        return now - before
    }
}

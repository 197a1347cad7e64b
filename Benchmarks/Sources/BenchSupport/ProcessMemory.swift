import Foundation

/// A process's memory as the kernel reports it (`/proc/<pid>/status`), beside ``ProcessCPU``'s time.
public enum ProcessMemory {
    /// The resident memory (`VmRSS`) of process `pid` now, in MiB; nil when `/proc` cannot be read.
    public static func residentMiB(_ pid: Int32) -> Int? { field("VmRSS:", of: pid) }

    /// A figure of `/proc/<pid>/status` (kB there) in MiB.
    static func field(_ name: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(name) }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 / 1024 }
    }
}

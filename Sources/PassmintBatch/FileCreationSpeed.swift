import Dispatch
import Foundation
package import Passmint
import Synchronization

/// Measures how fast a folder takes new files of a pass's size, written the way a batch writes passes (temporary
/// name, write, start writeback, rename; the file system synced at the end, and that time counted): the other physical limit of a
/// batch, next to `SigningSpeed`. For `passmint bench`: not part of the library's public API.
package enum FileCreationSpeed {
    /// Files of `bytes` bytes created per second in `folder` (a new subfolder, removed afterwards) by `threads`
    /// threads for about `seconds`, durable at the end.
    package static func filesPerSecond(folder: String, bytes: Int, threads: Int, seconds: Double) throws(PassmintError) -> Double {
        let probe = folder + "/.passmint-file-speed-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: probe) }
        do {
            try FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        } catch {
            throw PassmintError(.fileSystem, "cannot create \(probe): \(error.localizedDescription)")
        }
        let content = (0..<max(1, bytes)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let total = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { thread in
            var count = 0
            while DispatchTime.now().uptimeNanoseconds < deadline {
                do {
                    try FileIO.writeAtomically(content, to: probe + "/\(thread)-\(count).pkpass", durable: false, startWriteback: true)
                } catch {
                    failed.store(true, ordering: .relaxed)
                    break
                }
                count += 1
            }
            total.add(count, ordering: .relaxed)
        }
        FileIO.syncFileSystem(of: probe)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if failed.load(ordering: .relaxed) { throw PassmintError(.fileSystem, "cannot write test files into \(folder)") }
        return Double(total.load(ordering: .relaxed)) / elapsed
    }
}

public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for what another process writes into a folder, woken by inotify at each file created, renamed into it or
/// closed after writing, instead of looking at the folder again and again.
public enum FolderWatch {
    /// Blocks the calling thread (never call it on the cooperative pool) until `condition` holds, checking it again at
    /// each change in `folder`, which may not exist yet (its parent must); whether it held. The bound, in seconds, only
    /// keeps a broken test from hanging.
    public static func wait(in folder: URL, atMost seconds: Double = TestEvents.bound, until condition: () -> Bool) -> Bool {
        #if canImport(Glibc)
            let inotify = inotify_init1(Int32(IN_CLOEXEC))
            guard inotify >= 0 else { return TestEvents.blockingWait(atMost: seconds, until: condition) }
            defer { close(inotify) }
            let changes = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)
            _ = inotify_add_watch(inotify, folder.deletingLastPathComponent().path, changes)
            var watching = false
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                if !watching { watching = inotify_add_watch(inotify, folder.path, changes) >= 0 }
                if condition() { return true }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return condition() }
                var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, Int32(min(left * 1000, Double(Int32.max)))) > 0 {
                    _ = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                }
            }
        #else
            return TestEvents.blockingWait(atMost: seconds, until: condition)
        #endif
    }
}

internal import CPassmintMalloc
import Passmint

/// Process-wide tuning of the C allocator for programs that make many passes.
public enum MemoryAllocator {
    /// Keeps glibc from mapping and unmapping fresh pages for every 100–300 KB buffer a pass allocates (zip fragments,
    /// archive copies): those page faults cost more than the copies. `batch`, `bench` and `serve` call it at start-up.
    /// Process-wide, so it is for commands, not libraries. True when it was applied; false where the C library is not
    /// glibc.
    @discardableResult
    public static func keepPassSizedBuffersOffMmap() -> Bool { cpassmint_keep_pass_sized_buffers_off_mmap() == 1 }
}

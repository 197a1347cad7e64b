#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files, raised for the connection limit: a server that runs out of descriptors fails
/// every `accept` and spins on it, answering no one.
enum FileDescriptorLimit {
    /// Descriptors kept for what is not a client connection: the store, the log, APNs, jobs.
    static let reserved = 256

    /// Raises the soft limit on open files as far as `connections` need (up to the hard limit), and returns how many
    /// connections the limit allows: `connections`, or fewer when the hard limit is lower.
    static func raise(for connections: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let wanted = rlim_t(connections + reserved)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return min(connections, max(1, Int(clamping: limit.rlim_cur) - reserved))
    }
}

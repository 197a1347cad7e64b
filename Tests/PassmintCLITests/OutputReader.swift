import Foundation
import PassmintTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reads what a child process writes into a pipe, on a thread of its own, as it comes: each piece rings `TestEvents`,
/// so that a test waiting for a line (or for what the line reports) checks again.
final class OutputReader: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var ended = false
    }

    private let state = Mutex(State())
    private let readEnd: Int32
    private let writeEnd: Int32
    /// The pipe's write end, for the child's standard output and error.
    let writing: FileHandle

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        (readEnd, writeEnd) = (ends[0], ends[1])
        // Close-on-exec: other programs this test process starts do not inherit the pipe (and keep it open).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        writing = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
    }

    /// The child runs: closes this process's write end (the child has its own, so the reader sees the end of the
    /// output when the child ends) and starts reading.
    func started() {
        close(writeEnd)
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                state.withLock { $0.bytes += buffer[..<count] }
                TestEvents.ring()
            }
            close(readEnd)
            state.withLock { $0.ended = true }
            TestEvents.ring()
        }.start()
    }

    /// Whether the child closed its output (it ended).
    var ended: Bool { state.withLock { $0.ended } }

    /// The output so far; with `whole`, first waits for its end (the child has ended, what it wrote may still be in
    /// the pipe).
    func text(whole: Bool) -> String {
        if whole { _ = TestEvents.blockingWait { ended } }
        return state.withLock { String(decoding: $0.bytes, as: UTF8.self) }
    }
}

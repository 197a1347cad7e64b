import Foundation

/// Reads a JSON Lines file a line at a time from a byte offset, in constant memory: one buffer, grown only up to the
/// line limit. The one reader of JSON Lines in the package (`passmint batch`'s data files and the service's bulk
/// update uploads).
///
/// Lines end with LF; a CR before it is dropped; the last line needs no LF. A UTF-8 byte order mark at the start of
/// the file is dropped. A line longer than the limit is skipped without being held and read as ``Line/tooLong``.
package final class JSONLinesReader {
    /// The longest line read by default (16 MiB).
    package static let maximumLineBytes = 16 << 20

    package enum Line: Equatable {
        case text([UInt8])
        case tooLong

        /// True for a line of spaces and tabs only (or none), which readers skip.
        package var isBlank: Bool {
            guard case .text(let bytes) = self else { return false }
            return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
        }
    }

    private let descriptor: Int32
    private let maximumLine: Int
    private var buffer: [UInt8] = []
    /// What each `read` fills, before it is appended to `buffer`.
    private var block: [UInt8] = []
    private var start = 0
    /// The file offset of `buffer[0]`.
    private var base: Int64
    private var ended = false
    private var atFileStart: Bool

    /// Opens `path` to read from byte `offset`; nil when the file cannot be opened.
    package init?(path: String, offset: Int64 = 0, maximumLine: Int = JSONLinesReader.maximumLineBytes) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.maximumLine = maximumLine
        base = offset
        atFileStart = offset == 0
        if offset > 0 { lseek(descriptor, off_t(offset), SEEK_SET) }
    }

    deinit { close(descriptor) }

    /// The next line (nil at the end of the file) and the file offset after it, where a later reader resumes.
    package func next() -> (line: Line, end: Int64)? {
        while true {
            if atFileStart, !dropByteOrderMark() { continue }
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = end - start > maximumLine ? Line.tooLong : .text(Array(buffer[start..<end]))
                start = newline + 1
                return (line, base + Int64(start))
            }
            if ended {
                guard start < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                let line = end - start > maximumLine ? Line.tooLong : .text(Array(buffer[start..<end]))
                start = buffer.count
                return (line, base + Int64(start))
            }
            if buffer.count - start > maximumLine + 1 { return skipLongLine() }
            fill()
        }
    }

    /// Drops a byte order mark at the start of the file once three bytes (or the whole file) are in; false while it
    /// needs more bytes to tell.
    private func dropByteOrderMark() -> Bool {
        guard buffer.count - start >= 3 || ended else {
            fill()
            return false
        }
        atFileStart = false
        if buffer[start...].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        return true
    }

    private func fill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            base += Int64(start)
            start = 0
        }
        // Read into a block allocated once, then copy what came: zero-filling a megabyte of `buffer` for each read
        // cost more than the read itself for short files (a fuzz run managed one file a second).
        if block.isEmpty { block = [UInt8](repeating: 0, count: 1 << 20) }
        let read = block.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
        if read > 0 { buffer.append(contentsOf: block[0..<read]) } else { ended = true }
    }

    /// Drops bytes until the end of the current line.
    private func skipLongLine() -> (line: Line, end: Int64)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                start = newline + 1
                return (.tooLong, base + Int64(start))
            }
            base += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
            start = 0
            fill()
            if ended && buffer.isEmpty { return (.tooLong, base) }
        }
    }
}

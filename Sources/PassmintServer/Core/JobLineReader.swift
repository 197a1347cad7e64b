import Foundation

/// Reads a JSON Lines upload a line at a time from a byte offset, in constant memory (one buffer, grown only for a
/// line longer than it). Lines end with LF; a CR before it is dropped; the last line needs no LF.
final class JobLineReader {
    /// The longest line read; a longer one is skipped and reported.
    static let maximumLine = 16 << 20
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// The file offset of `buffer[0]`.
    private var base: Int64
    private var ended = false

    init(path: String, offset: Int64) throws(ServiceFailure) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ServiceFailure.storage("the upload is gone from the jobs folder") }
        base = offset
        if offset > 0 { lseek(descriptor, off_t(offset), SEEK_SET) }
    }

    deinit { close(descriptor) }

    /// The next line (nil at the end of the file, `.tooLong` for a line over ``maximumLine``) and the offset after it.
    func next() -> (line: Line, end: Int64)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[start..<end])
                start = newline + 1
                return (.text(line), base + Int64(start))
            }
            if ended {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return (.text(line), base + Int64(start))
            }
            if buffer.count - start > Self.maximumLine { return skipLongLine() }
            fill()
        }
    }

    enum Line {
        case text([UInt8])
        case tooLong
    }

    private func fill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            base += Int64(start)
            start = 0
        }
        let chunk = 1 << 20
        let count = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let read = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, chunk) }
        buffer.removeLast(chunk - max(read, 0))
        if read <= 0 { ended = true }
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

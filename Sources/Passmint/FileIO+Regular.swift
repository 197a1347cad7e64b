import Foundation

extension FileIO {
    /// Why ``readRegularFile(_:maximumBytes:)`` read nothing.
    package enum RegularFileRefusal: Error, Sendable, Equatable {
        /// No such file.
        case missing
        /// The path's last part is a symbolic link, which is never followed.
        case symbolicLink
        /// A FIFO, a device (`/dev/zero`), a socket or a folder.
        case notRegular
        /// Its size on disk, over the limit: nothing was read.
        case tooLarge(size: Int)
        /// It grew past the limit while it was read.
        case grew
        /// `open`, `fstat` or `read` failed with this `errno`.
        case failed(Int32)

        /// `strerror` of ``failed(_:)``.
        package static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
    }

    /// Reads a file from someone else's folder (a template's, a batch's image cells): opened without following a
    /// symbolic link at its last part (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`: a FIFO cannot hang the
    /// caller), it must be a regular file by `fstat` of what was opened (not `/dev/zero`, a FIFO, a socket or a
    /// folder) and at most `maximumBytes` by its size on disk before a byte is read; the read stops there too, should
    /// the file grow. The one place such files are opened; each caller words the refusal for its own files.
    package static func readRegularFile(_ path: String, maximumBytes: Int) throws(RegularFileRefusal) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .missing
            case ELOOP: throw .symbolicLink
            case let code: throw .failed(code)
            }
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .failed(errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
        guard Int(status.st_size) <= maximumBytes else { throw .tooLarge(size: Int(status.st_size)) }
        let (bytes, failure) = readOpen(fd, size: Int(status.st_size), maximumBytes: maximumBytes)
        if failure != 0 { throw .failed(failure) }
        if bytes.count > maximumBytes { throw .grew }
        return bytes
    }
}

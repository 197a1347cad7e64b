import Foundation

extension FileIO {
    /// ``read(_:what:maximumBytes:limit:)`` for a file that should be a `.pkpass` or a `.pkpasses` bundle (what
    /// `verify`, `lint` and `preview` read): at most a bundle's 150 MB, refused from its size before it is read.
    public static func readArchive(_ path: String, what: String) throws(PassmintError) -> [UInt8] {
        try read(path, what: what, maximumBytes: PassBundle.maximumBytes, limit: "a pass or a .pkpasses bundle may weigh")
    }

    /// Reads a whole file of at most `maximumBytes`. A regular file is refused from its size (`fstat`) before any of
    /// it is read; anything else (a pipe, a device) is read up to one byte past the limit. The bytes are read straight
    /// into the array, so a file costs its size once. `what` names the file and `limit` says whose limit it is
    /// ("a .pkpasses bundle may hold") in the error.
    public static func read(_ path: String, what: String, maximumBytes: Int, limit: String) throws(PassmintError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno
            if reason == ENOENT { throw PassmintError(.fileSystem, "\(what) \(path) does not exist") }
            throw PassmintError(.fileSystem, "cannot read \(what) \(path): \(String(cString: strerror(reason)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw PassmintError(.fileSystem, "cannot read \(what) \(path): \(String(cString: strerror(errno)))")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw PassmintError(.fileSystem, "\(what) \(path) is a folder, not a file") }
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        let tooBig = { (size: Int) in
            PassmintError(
                .archiveFailed,
                "\(what) \(path) weighs \(isRegular ? PassBundle.megabytes(size) : "more than \(PassBundle.megabytes(maximumBytes))"), "
                    + "more than the \(PassBundle.megabytes(maximumBytes)) \(limit): check that this is the file you meant")
        }
        if isRegular, Int(status.st_size) > maximumBytes { throw tooBig(Int(status.st_size)) }
        let (bytes, failure) = readOpen(fd, size: isRegular ? Int(status.st_size) : nil, maximumBytes: maximumBytes)
        if failure != 0 { throw PassmintError(.fileSystem, "cannot read \(what) \(path): \(String(cString: strerror(failure)))") }
        if bytes.count > maximumBytes { throw tooBig(bytes.count) }
        return bytes
    }

    /// Reads an open file to its end, or to one byte past `maximumBytes` (so that the caller sees it was too large):
    /// a regular file of `size` bytes in one allocation (plus one byte, to see it end), anything else in steps from
    /// 1 MB, doubling. The bytes are read straight into the array. Returns them and 0, or what was read and the `errno`.
    package static func readOpen(_ fd: Int32, size: Int?, maximumBytes: Int) -> (bytes: [UInt8], failure: Int32) {
        var bytes: [UInt8] = []
        var capacity = min(maximumBytes + 1, size.map { $0 + 1 } ?? (1 << 20))
        while true {
            var failure: Int32 = 0
            let count = bytes.count
            bytes.reserveCapacity(capacity)
            bytes.append(contentsOf: repeatElement(0, count: capacity - count))
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                var offset = count
                while offset < buffer.count {
                    let read = readSome(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if read < 0 && errno == EINTR { continue }
                    if read < 0 { failure = errno }
                    if read <= 0 { break }
                    offset += read
                }
                return offset
            }
            bytes.removeLast(bytes.count - got)
            if failure != 0 || got < capacity || bytes.count > maximumBytes { return (bytes, failure) }
            capacity = min(maximumBytes + 1, capacity * 2)
        }
    }
}

/// `read(2)`, which `FileIO.read` hides inside the extension.
private func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

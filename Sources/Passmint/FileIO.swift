import Foundation

/// File reading and atomic writing with errors that name the file.
public enum FileIO {
    /// Reads a whole file. `what` describes it in the error ("certificate", "data file", …).
    public static func read(_ path: String, what: String) throws(PassmintError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw PassmintError(.fileSystem, exists ? "cannot read \(what) \(path): permission denied" : "\(what) \(path) does not exist")
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw PassmintError(.fileSystem, "cannot read \(what) \(path): \(error.localizedDescription)")
        }
    }

    /// Writes `bytes` to `path` atomically and durably: a temporary file in the same folder is written, flushed to disk
    /// (`fsync`), renamed over `path`, and the folder flushed too, so a crash never leaves a half-written file and a
    /// power cut after the return cannot lose the file (its name lives in the folder).
    ///
    /// With `durable: false` both flushes are left out: the rename is still atomic against a crash of the process
    /// (what a batch needs, followed by one ``syncFileSystem(of:)`` at its end), but not against power loss.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int = 0o644, durable: Bool = true)
        throws(PassmintError)
    {
        try writeAtomically(bytes, to: path, permissions: permissions, durable: durable, syncingFolderWith: syncFolder)
    }

    /// ``writeAtomically(_:to:permissions:durable:)`` flushing the folder with `syncFolder` (a test watches it).
    package static func writeAtomically(
        _ bytes: [UInt8], to path: String, permissions: Int = 0o644, durable: Bool = true, syncingFolderWith syncFolder: (String) -> Int32
    ) throws(PassmintError) {
        let failure = bytes.withUnsafeBytes {
            writeAtomically([$0], to: path, permissions: permissions, durable: durable, whenWritten: nil, syncFolder: syncFolder)
        }
        if let failure { throw failure }
    }

    /// Flushes a folder's entries to disk (`fsync` on the folder): after a file in it was created or renamed, so that a
    /// power cut cannot lose its name. Returns 0, or the `errno`.
    package static func syncFolder(_ folder: String) -> Int32 {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        return fsync(fd) == 0 ? 0 : errno
    }

    /// The folder a path is in (`.` for a bare name), split on the last slash: URL(fileURLWithPath:) would stat the
    /// path, a system call per file.
    package static func folder(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        return slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    /// The write itself; returns what went wrong. Write the temporary file, flush it, rename it over `path`, flush the
    /// folder: the one place Passmint renames. `whenWritten` is given the file's descriptor once every byte is written
    /// (and flushed when `durable`), before it is closed and renamed.
    package static func writeAtomically(
        _ buffers: [UnsafeRawBufferPointer], to path: String, permissions: Int, durable: Bool, whenWritten: ((Int32) -> Void)?,
        syncFolder: (String) -> Int32 = syncFolder
    ) -> PassmintError? {
        let directory = folder(of: path)
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "/.\(name).\(hexString(OpenSSL.randomBytes(6))).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else {
            return PassmintError(
                .fileSystem,
                "cannot write \(path): \(String(cString: strerror(errno))) (does the folder \(directory) exist and is it writable?)")
        }
        var failure = writeAll(fd, buffers)
        if failure == 0 && durable && fsync(fd) != 0 { failure = errno }
        if failure == 0, let whenWritten { whenWritten(fd) }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            return PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(failure)))")
        }
        if durable {
            let failure = syncFolder(directory)
            guard failure == 0 else {
                return PassmintError(
                    .fileSystem,
                    "wrote \(path) but cannot flush its folder \(directory) to disk: \(String(cString: strerror(failure))); "
                        + "a power cut could lose it: check the disk and write it again")
            }
        }
        return nil
    }

    /// Writes `buffers` one after the other with `writev`, resuming after short writes; returns 0 or the `errno`.
    package static func writeAll(_ fd: Int32, _ buffers: [UnsafeRawBufferPointer]) -> Int32 {
        var vectors = buffers.filter { $0.count > 0 }.map {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
        }
        var first = 0
        while first < vectors.count {
            let written = vectors[first...].withUnsafeBufferPointer { writev(fd, $0.baseAddress, Int32(min($0.count, 1024))) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            var left = written
            while first < vectors.count && left >= vectors[first].iov_len {
                left -= vectors[first].iov_len
                first += 1
            }
            if left > 0 {
                vectors[first].iov_base = vectors[first].iov_base! + left
                vectors[first].iov_len -= left
            }
        }
        return 0
    }

    /// Flushes everything written so far to disk (`sync`), then the folder's entries (`fsync` on the folder).
    public static func syncFileSystem(of folder: String) {
        sync()
        let fd = open(folder, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

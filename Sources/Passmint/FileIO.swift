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

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder is written, flushed to disk and
    /// renamed over `path`, so a crash never leaves a half-written file.
    ///
    /// With `durable: false` the flush to disk is left out: the rename is still atomic against a crash of the process
    /// (what a batch needs, followed by one ``syncFileSystem(of:)`` at its end), but not against power loss.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int = 0o644, durable: Bool = true)
        throws(PassmintError)
    {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.\(url.lastPathComponent).\(hexString(OpenSSL.randomBytes(6))).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else {
            throw PassmintError(
                .fileSystem,
                "cannot write \(path): \(String(cString: strerror(errno))) (does the folder \(directory) exist and is it writable?)")
        }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && durable && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(failure)))")
        }
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

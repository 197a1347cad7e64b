internal import CPassmintFiles
package import Passmint

/// Writes that start the file's writeback (`sync_file_range`) as soon as the file is written: what a batch needs.
extension FileIO {
    /// ``Passmint/FileIO/writeAtomically(_:to:permissions:durable:)``, starting the file's writeback when asked (see below).
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool, startWriteback: Bool) throws(PassmintError) {
        let failure = bytes.withUnsafeBytes {
            writeAtomically([$0], to: path, permissions: 0o644, durable: durable, whenWritten: writeback(durable, startWriteback))
        }
        if let failure { throw failure }
    }

    /// Writes a pass archive atomically with one `writev` of its parts (see
    /// ``Passmint/FileIO/writeAtomically(_:to:permissions:durable:)``). With `startWriteback`, the file's pages start going
    /// to disk as soon as it is written, without waiting: the sync ending a batch then has little left to do, and the disk
    /// works while the batch signs.
    package static func writeAtomically(_ archive: PassArchive, to path: String, durable: Bool, startWriteback: Bool)
        throws(PassmintError)
    {
        let failure = archive.withBuffers {
            writeAtomically($0, to: path, permissions: 0o644, durable: durable, whenWritten: writeback(durable, startWriteback))
        }
        if let failure { throw failure }
    }

    /// Starts writing `length` bytes of a file from `offset` (0: to its end) to disk, without waiting: only a hint.
    package static func startWriteback(_ fd: Int32, offset: Int = 0, length: Int = 0) {
        _ = cpassmint_start_writeback(fd, Int64(offset), Int64(length))
    }

    /// What to do once a file is written: start its writeback when asked and the file is not flushed already. Only a
    /// hint: a file system without it still gets the final sync.
    private static func writeback(_ durable: Bool, _ startWriteback: Bool) -> ((Int32) -> Void)? {
        startWriteback && !durable ? { fd in _ = cpassmint_start_writeback(fd, 0, 0) } : nil
    }
}

import Foundation
import Passmint

/// The body of a `POST /api/v1/updates` as it arrives, written to the jobs folder in constant memory; made durable
/// (fsync) before the job is acknowledged, removed if the upload breaks off.
public final class JobUpload: @unchecked Sendable {
    let id: String
    let path: String
    private let descriptor: Int32
    private(set) var bytes: Int64 = 0

    init(id: String, path: String) throws(ServiceFailure) {
        self.id = id
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServiceFailure.storage("cannot write the upload to \(path)") }
    }

    deinit { close(descriptor) }

    /// Appends a chunk of the body.
    public func write(_ chunk: UnsafeRawBufferPointer) throws(ServiceFailure) {
        var done = 0
        while done < chunk.count {
            let written = Foundation.write(descriptor, chunk.baseAddress! + done, chunk.count - done)
            guard written > 0 else { throw ServiceFailure.storage("cannot write the upload to \(path): disk full?") }
            done += written
        }
        bytes += Int64(chunk.count)
    }

    /// Makes what was written durable: the file, then its name in the jobs folder.
    func finish() throws(ServiceFailure) {
        guard fsync(descriptor) == 0 else { throw ServiceFailure.storage("cannot sync the upload \(path)") }
        guard FileIO.syncFolder(FileIO.folder(of: path)) == 0 else {
            throw ServiceFailure.storage("cannot sync the jobs folder of the upload \(path)")
        }
    }

    /// The upload broke off: nothing of it is kept.
    public func discard() { unlink(path) }
}

import Foundation
import HTTPTypes
import Passmint

/// The body of a `POST /api/v1/updates` as it arrives, written to the jobs folder in constant memory; made durable
/// (fsync) before the job is acknowledged, removed if the upload breaks off. Cut (507) when the disk's free space falls
/// to the reserve (``JobLimits/diskReserve``): the store's writes come first.
package final class JobUpload: @unchecked Sendable {
    let id: String
    let path: String
    private let descriptor: Int32
    private(set) var bytes: Int64 = 0
    private let hasRoom: @Sendable () -> Bool
    /// Bytes written since the disk's free space was last measured.
    private var unchecked: Int64 = 0
    /// How often (in bytes written) the free space is measured again.
    static let checkEvery: Int64 = 4 << 20

    init(id: String, path: String, hasRoom: @escaping @Sendable () -> Bool = { true }) throws(ServiceFailure) {
        self.id = id
        self.path = path
        self.hasRoom = hasRoom
        guard hasRoom() else { throw Self.diskFull }
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServiceFailure.storage("cannot write the upload to the jobs folder: try again later") }
    }

    deinit { close(descriptor) }

    static let diskFull = ServiceFailure(
        HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
        "the service's disk is nearly full (it keeps a reserve free for its store, which its operator sets): uploads are refused until there is room; try again later",
        code: "disk-full")

    /// Appends a chunk of the body.
    package func write(_ chunk: UnsafeRawBufferPointer) throws(ServiceFailure) {
        unchecked += Int64(chunk.count)
        if unchecked >= Self.checkEvery {
            unchecked = 0
            guard hasRoom() else { throw Self.diskFull }
        }
        var done = 0
        while done < chunk.count {
            let written = Foundation.write(descriptor, chunk.baseAddress! + done, chunk.count - done)
            guard written > 0 else { throw ServiceFailure.storage("cannot write the upload to the jobs folder: is the disk full?") }
            done += written
        }
        bytes += Int64(chunk.count)
    }

    /// Makes what was written durable: the file, then its name in the jobs folder.
    func finish() throws(ServiceFailure) {
        guard fsync(descriptor) == 0 else { throw ServiceFailure.storage("cannot sync the upload to the jobs folder: is the disk full?") }
        guard FileIO.syncFolder(FileIO.folder(of: path)) == 0 else {
            throw ServiceFailure.storage("cannot sync the jobs folder after an upload: is the disk full?")
        }
    }

    /// The upload broke off: nothing of it is kept.
    package func discard() { unlink(path) }
}

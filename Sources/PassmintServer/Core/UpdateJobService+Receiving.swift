package import NIOCore
import Passmint
import Synchronization

extension UpdateJobService {
    /// Writes a `POST /api/v1/updates` body to the jobs folder as it arrives (any size, constant memory), makes it
    /// durable and queues its job (``submit(_:)``). The writes and the fsyncs run on `files`, a thread of
    /// their own: a slow or full disk never holds a thread of the pool that answers devices. Nothing of an upload
    /// that breaks off is kept.
    package func receive<Body: AsyncSequence>(_ body: Body) async throws -> UpdateJob where Body.Element == ByteBuffer {
        let upload = try await files.perform { try self.newUpload() }
        do {
            for try await buffer in body {
                try await files.perform {
                    self.beforeEachUploadWrite.withLock { $0 }?()
                    try buffer.readableBytesView.withUnsafeBytes { bytes throws(ServiceFailure) in try upload.write(bytes) }
                }
            }
            guard upload.bytes > 0 else { throw ServiceFailure.badRequest("the body is empty: send one JSON object per line") }
            return try await submit(upload)
        } catch {
            upload.discard()
            throw error
        }
    }
}

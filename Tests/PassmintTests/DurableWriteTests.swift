import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Synchronization
import Testing

/// The one way Passmint replaces a file: write a temporary file beside it, flush it, rename it over the file, flush
/// the folder (so that a power cut after the return cannot lose the new name).
@Suite(.computeThreads) struct DurableWriteTests {
    /// Records each folder flush and what the folder held at that moment, then flushes it for real.
    final class FolderSyncs: Sendable {
        let seen = Mutex<[(folder: String, names: [String], content: [UInt8]?)]>([])
        let file: String
        init(file: String) { self.file = file }

        func sync(_ folder: String) -> Int32 {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            let content = FileManager.default.contents(atPath: file).map { [UInt8]($0) }
            seen.withLock { $0.append((folder, names, content)) }
            return FileIO.syncFolder(folder)
        }
    }

    @Test func theFolderIsFlushedAfterTheRename() throws {
        let folder = TestEnvironment.temporaryFolder("durable").path
        let path = folder + "/job.json"
        try FileIO.writeAtomically(Array("old".utf8), to: path)
        let syncs = FolderSyncs(file: path)
        try FileIO.writeAtomically(Array("new".utf8), to: path, syncingFolderWith: syncs.sync)
        let seen = syncs.seen.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.folder == folder)
        #expect(seen.first?.names == ["job.json"], "renamed before the folder is flushed: no temporary file left")
        #expect(seen.first?.content == Array("new".utf8))
        #expect(try FileIO.read(path, what: "file") == Array("new".utf8))
    }

    @Test func aFolderThatCannotBeFlushedIsAnError() throws {
        let folder = TestEnvironment.temporaryFolder("durable").path
        let path = folder + "/out.pkpass"
        #expect {
            try FileIO.writeAtomically(Array("pass".utf8), to: path, syncingFolderWith: { _ in EIO })
        } throws: { error in
            let message = (error as? PassmintError)?.message ?? ""
            return message.contains(path) && message.contains(folder) && message.contains("power cut")
        }
    }

    @Test func aBatchWriteLeavesTheFlushesToItsEnd() throws {
        let folder = TestEnvironment.temporaryFolder("durable").path
        let path = folder + "/1.pkpass"
        let syncs = FolderSyncs(file: path)
        try FileIO.writeAtomically(Array("pass".utf8), to: path, durable: false, syncingFolderWith: syncs.sync)
        #expect(syncs.seen.withLock { $0.isEmpty }, "a batch flushes the whole output folder once at its end")
        #expect(try FileIO.read(path, what: "file") == Array("pass".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["1.pkpass"])
    }

    @Test func syncingAFolderThatIsNotThereSaysSo() {
        #expect(FileIO.syncFolder("/nonexistent-\(UUID().uuidString)") == ENOENT)
    }
}

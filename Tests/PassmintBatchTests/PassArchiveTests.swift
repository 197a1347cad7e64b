import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Pass archives assembled by Passmint around the template's shared entries (``PassArchive``, ``ZipWriter``).
@Suite(.computeThreads) struct PassArchiveTests {
    @Test func anArchiveInPartsIsOneValidZipWithTheTemplatesEntriesFirst() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = try PassBuilder(identity: TestTemplates.identity())
        let prepared = try builder.prepare(PassInput(template: template, data: TestTemplates.data))
        let archive = try builder.signArchive(prepared).archive
        #expect(archive.prefix != nil, "the template's entries are shared, not copied")
        let bytes = archive.bytes
        #expect(bytes.count == archive.count)
        #expect(Array(bytes.prefix(template.archivePrefix!.local.count)) == template.archivePrefix!.local)
        let entries = try ZipArchive.read(bytes, source: "parts.pkpass")
        #expect(entries.map(\.name) == ["icon.png", "icon@2x.png", "icon@3x.png", "pass.json", "manifest.json", "signature"])
        #expect(entries.first { $0.name == "pass.json" }?.bytes == prepared.passJSON)
        #expect(archive.sha256Hex() == Digest.sha256Hex(bytes))
        #expect(template.sha256Hex(ofArchive: bytes) == Digest.sha256Hex(bytes))
        #expect(archive.crc32 == Self.crc32(bytes))

        // One writev of the parts writes the same bytes, which other tools accept.
        let file = TestEnvironment.temporaryFolder().appendingPathComponent("parts.pkpass")
        try FileIO.writeAtomically(archive, to: file.path, durable: false, startWriteback: true)
        #expect(try FileIO.read(file.path, what: "pass") == bytes)
        let check = try TestEnvironment.independentlyCheck(file, root: TestEnvironment.devChain().appendingPathComponent("root.pem"))
        #expect(check.status == 0, "\(check.stderr)")
        #expect(PassVerifier().verify(bytes, source: "parts.pkpass").isValid)
    }

    @Test func aPassThatReplacesATemplateFileIsWrittenWhole() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = try PassBuilder(identity: TestTemplates.identity())
        let icon = try PassImages([(key: "icon", bytes: TestTemplates.png(width: 38, height: 38), label: "member icon")])
        let prepared = try builder.prepare(PassInput(template: template, data: TestTemplates.data, images: icon))
        let archive = try builder.signArchive(prepared).archive
        #expect(archive.prefix == nil, "the pass does not begin with the template's entries")
        let entries = try ZipArchive.read(archive.bytes, source: "own-icon.pkpass")
        #expect(entries.first { $0.name == "icon.png" }?.bytes == icon.files[0].bytes)
        #expect(archive.sha256Hex() == Digest.sha256Hex(archive.bytes))
        #expect(archive.crc32 == Self.crc32(archive.bytes))
        #expect(PassVerifier().verify(archive.bytes, source: "own-icon.pkpass").isValid)
    }

    @Test func namesThatAreNotASCIIAreFlaggedUTF8AndSmallFilesStoredWhenDeflateDoesNotHelp() throws {
        var writer = ZipWriter()
        writer.add(name: "ascii.txt", small: Array(String(repeating: "compressible ", count: 50).utf8), level: 6)
        writer.add(name: "größe.txt", small: [1, 2, 3], level: 6)
        writer.add(name: "stored.txt", small: Array("kept as it is".utf8), level: 0)
        let bytes = writer.finish()
        let entries = try ZipArchive.read(bytes, source: "names.zip")
        #expect(entries.map(\.name) == ["ascii.txt", "größe.txt", "stored.txt"])
        #expect(entries.map(\.compressed) == [true, false, false])
        #expect(entries[1].bytes == [1, 2, 3])
        // General purpose flags of each local header: bit 11 only for the name that is not ASCII.
        var flags: [UInt16] = []
        var offset = 0
        while offset + 30 <= bytes.count, bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]) {
            flags.append(UInt16(bytes[offset + 6]) | UInt16(bytes[offset + 7]) << 8)
            let size = Int(bytes[offset + 18]) | Int(bytes[offset + 19]) << 8 | Int(bytes[offset + 20]) << 16
            offset += 30 + Int(bytes[offset + 26]) + size
        }
        #expect(flags == [0, 0x0800, 0])
    }

    @Test func writeAllWritesEveryBufferPastTheVectorLimit() throws {
        let chunks = (0..<3000).map { index in [UInt8](repeating: UInt8(index & 0xFF), count: index % 7) }
        let path = TestEnvironment.temporaryFolder().appendingPathComponent("vectors").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        let failure = withBuffers(chunks) { FileIO.writeAll(fd, $0) }
        close(fd)
        #expect(failure == 0)
        #expect(try FileIO.read(path, what: "file") == chunks.flatMap { $0 })
    }

    private func withBuffers<R>(_ chunks: [[UInt8]], _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        let pointers = chunks.map { chunk -> UnsafeMutableRawBufferPointer in
            let pointer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk.count, alignment: 1)
            chunk.withUnsafeBytes { pointer.copyMemory(from: $0) }
            return pointer
        }
        defer { for pointer in pointers { pointer.deallocate() } }
        return body(pointers.map { UnsafeRawBufferPointer($0) })
    }

    /// CRC-32 (the ZIP one), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

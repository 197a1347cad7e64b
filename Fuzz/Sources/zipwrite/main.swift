import FuzzDriver
import Passmint

/// Passmint's ZIP writer: entries made from the input are written with ``ZipArchive/make(_:)``, read back through
/// libzip, and must come back the same (names, bytes, order). Input: repeated [flags][name length][name][2-byte
/// length][data]; bit 0 of flags asks for deflate, names are mapped onto letters and digits and made unique.
runFuzzer { data, size in
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var entries: [ZipArchive.Entry] = []
    var position = 0
    func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(input.count, position + count)
        defer { position = end }
        return input[position..<end]
    }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
    while position < input.count, entries.count < 64 {
        let flags = take(1).first ?? 0
        let nameLength = Int(take(1).first ?? 0) % 40
        let name = take(nameLength).map { alphabet[Int($0) % alphabet.count] }
        let lengthBytes = Array(take(2))
        let length = lengthBytes.count == 2 ? Int(lengthBytes[0]) | Int(lengthBytes[1]) << 8 : 0
        let bytes = Array(take(length))
        let unique = "\(entries.count)-" + String(decoding: name, as: UTF8.self)
        entries.append(ZipArchive.Entry(name: unique, bytes: bytes, compressed: flags & 1 == 1))
    }
    guard let archive = try? ZipArchive.make(entries) else { fatalError("the writer refused \(entries.count) small entries") }
    let limits = ZipLimits(maximumEntries: 100, maximumEntryBytes: 1 << 20, maximumTotalBytes: 1 << 24, maximumRatio: .max)
    let read: [ZipArchive.Entry]
    do {
        read = try ZipArchive.read(archive, source: "written.zip", limits: limits)
    } catch {
        fatalError("libzip could not read what Passmint wrote: \(error)")
    }
    guard read.map(\.name) == entries.map(\.name), read.map(\.bytes) == entries.map(\.bytes) else {
        fatalError("the archive read back differs from what was written")
    }
    return 0
}

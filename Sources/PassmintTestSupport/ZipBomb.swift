/// Zip bombs for tests, built in memory: a deflate stream of fixed-Huffman blocks, each a run of 1,022 copies of
/// "repeat the last 258 bytes", which inflates about 160 times larger than it is, with an honest size and CRC.
public enum ZipBomb {
    /// A one-entry ZIP whose `entry` inflates to at least `size` zero bytes.
    public static func archive(entry: String, size: Int) -> [UInt8] {
        let (stream, inflated) = deflatedZeros(atLeast: size)
        let crc = crcOfZeros(inflated)
        let name = Array(entry.utf8)
        var bytes: [UInt8] = []
        func put16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func put32(_ value: UInt32) {
            put16(Int(value & 0xFFFF))
            put16(Int(value >> 16))
        }
        /// The fields the local header and the central directory entry share, from "version needed" to the name's length.
        func sharedFields() {
            put16(20)  // version needed
            put16(0)  // flags
            put16(8)  // deflate
            put16(0)  // time
            put16(0x21)  // date
            put32(crc)
            put32(UInt32(stream.count))
            put32(UInt32(inflated))
            put16(name.count)
        }
        put32(0x0403_4B50)
        sharedFields()
        put16(0)  // extra length
        bytes += name + stream
        let central = UInt32(bytes.count)
        put32(0x0201_4B50)
        put16(20)  // version made by
        sharedFields()
        put16(0)  // extra length
        put16(0)
        put16(0)
        put16(0)
        put32(0)
        put32(0)
        bytes += name
        let centralSize = UInt32(bytes.count) - central
        put32(0x0605_4B50)
        put16(0)
        put16(0)
        put16(1)
        put16(1)
        put32(centralSize)
        put32(central)
        put16(0)
        return bytes
    }

    /// Raw deflate data for at least `size` zero bytes, and the exact number of bytes it inflates to.
    static func deflatedZeros(atLeast size: Int) -> (stream: [UInt8], inflated: Int) {
        let matches = 1_022  // with a 3-bit header and 7-bit end of block, 13 bits a match: each block ends on a byte
        var writer = BitWriter()
        var inflated = 0
        var first = true
        repeat {
            let final = inflated + 1 + matches * 258 >= size
            writer.bits(final ? 1 : 0, count: 1)
            writer.bits(1, count: 2)  // fixed Huffman codes
            if first {
                writer.code(0x30, length: 8)  // the literal byte 0
                inflated += 1
                first = false
            }
            for _ in 0..<matches {
                writer.code(0xC5, length: 8)  // length 258 (code 285)
                writer.code(0, length: 5)  // distance 1
            }
            writer.code(0, length: 7)  // end of block
            inflated += matches * 258
            if final { break }
        } while true
        return (writer.finish(), inflated)
    }

    static func crcOfZeros(_ count: Int) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var used = 0

        /// A field, least significant bit first.
        mutating func bits(_ value: UInt32, count: Int) {
            for bit in 0..<count { push(value >> bit & 1) }
        }

        /// A Huffman code, most significant bit first.
        mutating func code(_ value: UInt32, length: Int) {
            for bit in stride(from: length - 1, through: 0, by: -1) { push(value >> bit & 1) }
        }

        mutating func push(_ bit: UInt32) {
            current |= bit << used
            used += 1
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }

        mutating func finish() -> [UInt8] { used > 0 ? bytes + [UInt8(current)] : bytes }
    }
}

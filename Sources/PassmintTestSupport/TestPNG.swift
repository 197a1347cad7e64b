internal import CPassmintPNG
import Synchronization

/// Real PNG files for tests: 8-bit RGBA images of one colour that any PNG decoder reads.
public enum TestPNG {
    private static let cache = Mutex<[String: [UInt8]]>([:])

    /// A `width`×`height` image of one colour, encoded by libspng (made once per size and colour in a process).
    public static func make(width: Int, height: Int, rgba: (UInt8, UInt8, UInt8, UInt8) = (0x2A, 0x6F, 0x4E, 0xFF)) -> [UInt8] {
        let key = "\(width)x\(height)-\(rgba.0).\(rgba.1).\(rgba.2).\(rgba.3)"
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let pixels = [UInt8](Array(repeating: [rgba.0, rgba.1, rgba.2, rgba.3], count: width * height).joined())
        let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue))!
        defer { spng_ctx_free(context) }
        var header = spng_ihdr(
            width: UInt32(width), height: UInt32(height), bit_depth: 8,
            color_type: UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue), compression_method: 0, filter_method: 0,
            interlace_method: 0)
        precondition(spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1) == 0 && spng_set_ihdr(context, &header) == 0)
        let encoded = pixels.withUnsafeBytes {
            spng_encode_image(context, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        precondition(encoded == 0, "libspng could not encode a \(width)×\(height) image: \(String(cString: spng_strerror(encoded)))")
        var length = 0
        var error: Int32 = 0
        let buffer = spng_get_png_buffer(context, &length, &error)!
        defer { free(buffer) }
        let png = [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
        cache.withLock { $0[key] = png }
        return png
    }

    /// A small image written without any library: one colour, every row with filter 0, the image data in a zlib
    /// stream of stored blocks, every chunk with its CRC. Tests damage its bytes at known places.
    public static func makeStored(width: Int, height: Int, rgba: (UInt8, UInt8, UInt8, UInt8) = (0x2A, 0x6F, 0x4E, 0xFF)) -> [UInt8] {
        var header: [UInt8] = []
        append32(UInt32(width), to: &header)
        append32(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // bit depth 8, RGBA, deflate, filter method 0, not interlaced
        let row: [UInt8] = [0] + Array(repeating: [rgba.0, rgba.1, rgba.2, rgba.3], count: width).flatMap { $0 }
        let raw = [UInt8](Array(repeating: row, count: height).joined())
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        append32(UInt32(data.count), to: &bytes)
        let body = Array(type.utf8) + data
        bytes += body
        append32(crc32(body), to: &bytes)
        return bytes
    }

    /// A zlib stream holding `data` in stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            output += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            output += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        append32(b << 16 | a, to: &output)
        return output
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

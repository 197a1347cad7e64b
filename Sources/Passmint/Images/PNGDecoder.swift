internal import CPassmintPNG
import Synchronization

/// Decodes a whole PNG file with libspng, row by row, to prove that every byte of it is readable: chunk CRCs
/// (critical and ancillary), the IHDR fields, the zlib stream of the image data, every row's filter, and the
/// chunks after the image up to IEND. Memory stays at one row, whatever the image's size.
enum PNGDecoder {
    /// Images larger than this are refused before any pixel is decoded. Wallet shows pass images at most about
    /// 1,100 px wide (a @3x strip or artwork); a file far larger is a mistake or an attack.
    static let maximumSide: UInt32 = 8_192
    static let maximumPixels = 16_777_216

    /// Counts the decodes started in a task that sets it: how a test sees that an image was refused before decoding.
    final class Counter: Sendable {
        let decodes = Atomic<Int>(0)
    }
    @TaskLocal static var counter: Counter?

    /// The pixel size of a PNG that decodes completely. `file` names the image in errors.
    static func decode(_ bytes: [UInt8], file: String) throws(PassmintError) -> (width: Int, height: Int) {
        counter?.decodes.add(1, ordering: .relaxed)
        guard let context = spng_ctx_new(0) else {
            throw PassmintError(.invalidImage, "\(file): libspng could not allocate a decoder")
        }
        defer { spng_ctx_free(context) }
        func damaged(_ code: Int32) -> PassmintError {
            PassmintError(.invalidImage, "\(file) is a damaged PNG file (\(String(cString: spng_strerror(code)))): export it again")
        }
        var result: Int32 = spng_set_crc_action(context, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_ERROR.rawValue))
        if result == 0 { result = spng_set_image_limits(context, maximumSide, maximumSide) }
        // No chunk may be larger than the file itself (libspng wants the cache limit at least as large).
        let chunkLimit = max(bytes.count, 1 << 20)
        if result == 0 { result = spng_set_chunk_limits(context, chunkLimit, chunkLimit) }
        guard result == 0 else { throw damaged(result) }

        // withUnsafeBytes rethrows untyped errors: the closure hands its typed error back in a Result.
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(PassmintError) in try decode(raw, context: context, file: file, damaged: damaged) }
        }.get()
    }

    private static func decode(
        _ raw: UnsafeRawBufferPointer, context: OpaquePointer, file: String, damaged: (Int32) -> PassmintError
    ) throws(PassmintError) -> (width: Int, height: Int) {
        guard let base = raw.baseAddress, raw.count > 0 else {
            throw PassmintError(.invalidImage, "\(file) is empty: export the image again as PNG")
        }
        var code = spng_set_png_buffer(context, base, raw.count)
        guard code == 0 else { throw damaged(code) }
        var header = spng_ihdr()
        code = spng_get_ihdr(context, &header)
        if code == Int32(SPNG_EUSER_WIDTH.rawValue) || code == Int32(SPNG_EUSER_HEIGHT.rawValue) {
            throw PassmintError(
                .invalidImage,
                "\(file) declares a size Passmint does not decode (at most \(maximumSide)×\(maximumSide) px): Wallet shows pass images "
                    + "at most about 1,100 px wide; export it at the recommended size")
        }
        guard code == 0 else { throw damaged(code) }
        let width = Int(header.width)
        let height = Int(header.height)
        guard width * height <= maximumPixels else {
            throw PassmintError(
                .invalidImage,
                "\(file) is \(width)×\(height) px, more than the \(maximumPixels / 1_048_576) million pixels Passmint decodes: "
                    + "export it at the recommended size")
        }
        var imageSize = 0
        code = spng_decoded_image_size(context, Int32(SPNG_FMT_PNG.rawValue), &imageSize)
        guard code == 0 else { throw damaged(code) }
        code = spng_decode_image(context, nil, 0, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_DECODE_PROGRESSIVE.rawValue))
        guard code == 0 else { throw damaged(code) }
        var row = [UInt8](repeating: 0, count: max(imageSize / max(height, 1), 1))
        repeat {
            code = row.withUnsafeMutableBytes { spng_decode_row(context, $0.baseAddress, $0.count) }
        } while code == 0
        guard code == Int32(SPNG_EOI.rawValue) else { throw damaged(code) }
        // The chunks after the image data, up to IEND: a file cut short after its pixels is damaged too.
        code = spng_decode_chunks(context)
        guard code == 0 else { throw damaged(code) }
        return (width, height)
    }
}

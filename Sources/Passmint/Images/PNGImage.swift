/// The facts Passmint needs about a PNG file: that it is a whole, decodable one, and its pixel size.
public struct PNGInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The pixel size the file's header (its first chunk, IHDR) declares, read without decoding anything; nil when
    /// the file does not start with the signature and an IHDR chunk.
    public static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: signature), Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func number(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// Checks that `bytes` are a whole, readable PNG file (every chunk, the compressed image data, every row) and
    /// reads its pixel size. `file` names the image in errors.
    public init(bytes: [UInt8], file: String) throws(PassmintError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else {
            throw PassmintError(
                .invalidImage,
                "\(file) is not a PNG file (its first bytes are not the PNG signature): Wallet only shows PNG images; export it as PNG")
        }
        (width, height) = try PNGDecoder.decode(bytes, file: file)
    }
}

/// The parts of an image file name: `fr.lproj/logo@2x.png` → localization `fr`, name `logo`, scale 2.
public struct ImageName: Sendable, Hashable {
    /// The `.lproj` folder's language, or nil for a top-level image.
    public var localization: String?
    /// The image slot, e.g. `logo`, `strip`, `icon`.
    public var name: String
    /// 1, 2 or 3.
    public var scale: Int

    /// Parses a relative path; nil when it is not a `.png` file.
    public init?(path: String) {
        var components = path.split(separator: "/").map(String.init)
        guard let file = components.popLast(), file.lowercased().hasSuffix(".png") else { return nil }
        if let folder = components.last, folder.hasSuffix(".lproj"), components.count == 1 {
            localization = String(folder.dropLast(".lproj".count))
        } else if components.isEmpty {
            localization = nil
        } else {
            return nil
        }
        var base = String(file.dropLast(4))
        scale = 1
        for candidate in [2, 3] where base.hasSuffix("@\(candidate)x") {
            scale = candidate
            base = String(base.dropLast(3))
        }
        name = base
    }
}

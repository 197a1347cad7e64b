internal import CPassmintQRencode
import Foundation
public import Passmint

/// A QR code made in-process with libqrencode: its modules, and an SVG drawing of them. Used for the "scan with your
/// iPhone" code on a pass's landing page, where the code must decode to the download link.
public struct QRCode: Sendable, Equatable {
    /// How much of the symbol may be damaged and still decode (ISO/IEC 18004 levels L, M, Q, H).
    public enum Correction: Sendable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Modules per side (21 for version 1, 4 more for each version).
    public let size: Int
    /// The QR version (1–40) libqrencode chose for the text.
    public let version: Int
    private let dark: [Bool]

    /// Encodes `text` as UTF-8 bytes (8-bit mode).
    ///
    /// - Throws: `PassmintError.Code.invalidData` when the text is empty or longer than a QR code holds at this
    ///   correction level (2,953 bytes at `low`).
    public init(_ text: String, correction: Correction = .medium) throws(PassmintError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else {
            throw PassmintError(.invalidData, "a QR code needs a non-empty text without NUL characters")
        }
        guard let code = QRcode_encodeString8bit(text, 0, correction.level) else {
            throw PassmintError(
                .invalidData, "\(bytes.count) bytes do not fit in a QR code at this correction level: shorten the text (a link) or lower it"
            )
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        version = Int(code.pointee.version)
        dark = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark.
    public func isDark(x: Int, y: Int) -> Bool { dark[y * size + x] }

    /// An SVG of the code with a quiet zone of `margin` modules, one path of unit squares in a viewBox of modules
    /// (scale it with CSS width/height; `crispEdges` keeps the modules sharp). `title` is read by screen readers.
    public func svg(margin: Int = 4, title: String = "QR code") -> String {
        var path = ""
        path.reserveCapacity(size * size * 4)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                var run = 1
                while x + run < size, isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + margin) \(y + margin)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let side = size + 2 * margin
        let escapedTitle = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img">\
            <title>\(escapedTitle)</title><rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}

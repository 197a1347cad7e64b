internal import CPassmintZint
import Foundation
public import Passmint

/// A barcode drawn in-process with zint (Debian's `libzint-dev`): the dark rectangles of its symbol, one unit a module,
/// and an SVG of them. Used by the pass preview, where a scanner reading the picture must get the barcode's message.
public struct BarcodeSymbol: Sendable, Equatable {
    /// A dark rectangle of the symbol, in modules.
    public struct Bar: Sendable, Equatable {
        /// Left edge, in modules from the symbol's left.
        public var x: Double
        /// Top edge, in modules from the symbol's top.
        public var y: Double
        /// Width in modules.
        public var width: Double
        /// Height in modules.
        public var height: Double
    }

    /// The format drawn.
    public let format: Barcode.Format
    /// Width and height of the symbol in modules, quiet zone excluded.
    public let width: Double
    /// Height of the symbol in modules, quiet zone excluded.
    public let height: Double
    /// Every dark rectangle.
    public let bars: [Bar]

    /// Encodes `message` as bytes of `messageEncoding` (an IANA name: `iso-8859-1`, `utf-8`, …), as Wallet does.
    ///
    /// - Throws: `PassmintError.Code.invalidData` when the message is empty, cannot be written in the encoding, is too
    ///   long for the format, or the format is one zint cannot draw here; the message says which.
    public init(format: Barcode.Format, message: String, messageEncoding: String = "iso-8859-1") throws(PassmintError) {
        guard !message.isEmpty else { throw PassmintError(.invalidData, "the \(format.rawValue) barcode has an empty message") }
        let bytes = try Self.bytes(of: message, encoding: messageEncoding)
        guard let symbol = ZBarcode_Create() else { throw PassmintError(.invalidData, "zint could not allocate a symbol") }
        defer { ZBarcode_Delete(symbol) }
        // A 13-digit EAN-13 message carries its check digit: zint checks it rather than adding one.
        symbol.pointee.symbology = format == .ean13 && bytes.count == 13 ? BARCODE_EANX_CHK : Self.symbology(format)
        symbol.pointee.show_hrt = 0
        symbol.pointee.input_mode = Int32(DATA_MODE)
        symbol.pointee.scale = 0.5
        if format == .pdf417 { symbol.pointee.option_2 = 4 }
        if format == .code128 || !format.isClassic { symbol.pointee.height = 40 }
        let status = bytes.withUnsafeBufferPointer { buffer in
            ZBarcode_Encode_and_Buffer_Vector(symbol, buffer.baseAddress, Int32(buffer.count), 0)
        }
        guard status < ZINT_ERROR, let vector = symbol.pointee.vector else {
            let reason = withUnsafeBytes(of: symbol.pointee.errtxt) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw PassmintError(
                .invalidData,
                "\(format.rawValue) cannot encode this \(bytes.count)-byte message (zint: \(reason)): shorten it or pick another format")
        }
        var bars: [Bar] = []
        var next = vector.pointee.rectangles
        while let rectangle = next {
            let r = rectangle.pointee
            bars.append(Bar(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height)))
            next = r.next
        }
        self.format = format
        self.width = Double(vector.pointee.width)
        self.height = Double(vector.pointee.height)
        self.bars = bars
    }

    /// Whether the symbol is wider than tall by far (PDF417, Code 128 and the iOS 27 linear formats).
    public var isRectangular: Bool { width > height * 1.5 }

    /// Whether the format is a one-row (linear) code: Code 128 and the iOS 27 formats.
    public var isLinear: Bool { ![.qr, .pdf417, .aztec].contains(format) }

    /// An SVG of the symbol on white with a quiet zone (10 modules beside a linear code, 2 around a 2D one, as the
    /// standards ask), in a viewBox of modules: size it with CSS. `title` is read by screen readers.
    public func svg(title: String) -> String {
        let quietX = isLinear ? 10.0 : 2.0
        let quietY = 2.0
        let boxWidth = width + 2 * quietX
        let boxHeight = height + 2 * quietY
        var path = ""
        path.reserveCapacity(bars.count * 24)
        for bar in bars {
            path += "M\(Self.number(bar.x + quietX)) \(Self.number(bar.y + quietY))h\(Self.number(bar.width))"
            path += "v\(Self.number(bar.height))h\(Self.number(-bar.width))z"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Self.number(boxWidth)) \(Self.number(boxHeight))" \
            shape-rendering="crispEdges" role="img" preserveAspectRatio="xMidYMid meet"><title>\(HTMLText.escape(title))</title>\
            <rect width="\(Self.number(boxWidth))" height="\(Self.number(boxHeight))" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    /// zint's symbology for a Wallet format.
    static func symbology(_ format: Barcode.Format) -> Int32 {
        switch format {
        case .qr: BARCODE_QRCODE
        case .pdf417: BARCODE_PDF417
        case .aztec: BARCODE_AZTEC
        case .code128: BARCODE_CODE128
        case .code39: BARCODE_CODE39
        case .codabar: BARCODE_CODABAR
        case .ean13: BARCODE_EANX
        case .i2of5: BARCODE_C25INTER
        }
    }

    /// The message's bytes in its IANA encoding: Latin-1 (`iso-8859-1`, the usual one), UTF-8 or ASCII.
    static func bytes(of message: String, encoding: String) throws(PassmintError) -> [UInt8] {
        let name = encoding.lowercased()
        let chosen: String.Encoding
        switch name {
        case "iso-8859-1", "iso8859-1", "latin1", "iso_8859-1", "l1": chosen = .isoLatin1
        case "utf-8", "utf8": chosen = .utf8
        case "us-ascii", "ascii": chosen = .ascii
        default:
            throw PassmintError(
                .invalidData, "messageEncoding \(encoding) is not one the preview can write: use iso-8859-1 (what scanners expect) or utf-8"
            )
        }
        guard let data = message.data(using: chosen) else {
            throw PassmintError(
                .invalidData,
                "the barcode message has characters \(encoding) cannot hold: set messageEncoding to utf-8 or change the message")
        }
        return [UInt8](data)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }
}

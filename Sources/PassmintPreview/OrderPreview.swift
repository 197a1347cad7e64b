public import Foundation
public import Passmint

/// A Wallet order as one self-contained HTML page, laid out as Wallet's order screen shows it: the merchant, the order
/// number and status, each fulfillment's progress (ordered → shipped → out for delivery → delivered, or ordered →
/// preparing → ready → picked up) with its tracking, delivery or pickup window and pickup code, the line items with
/// their images, and the payment summary. Texts are translated with the order's `<lang>.lproj/order.strings`.
///
/// ```swift
/// let page = try OrderPreview(order: bytes, source: "shipment.order").html(language: "de")
/// ```
public struct OrderPreview: Sendable {
    public let source: String
    /// `order.json` as read (leniently: a missing or wrong key shows as nothing).
    public let orderJSON: JSONObject
    /// The order's other files (images, `.lproj/order.strings`).
    public let files: [PassContents.File]

    public init(orderJSON: JSONObject, files: [PassContents.File], source: String) {
        self.orderJSON = orderJSON
        self.files = files
        self.source = source
    }

    /// The preview of a built `.order` package.
    public init(order bytes: [UInt8], source: String) throws(PassmintError) {
        let entries = try ZipArchive.read(bytes, source: source)
        guard let json = entries.first(where: { $0.name == "order.json" }).flatMap({ try? JSONParser.value($0.bytes).objectValue }) else {
            throw PassmintError(.invalidOrder, "\(source) holds no order.json object at its root: it is not a Wallet order package")
        }
        let files = entries.filter { !["order.json", "manifest.json", "signature"].contains($0.name) && !$0.name.hasSuffix("/") }
        self.init(orderJSON: json, files: files.map { PassContents.File(path: $0.name, bytes: $0.bytes) }, source: source)
    }

    /// The preview of an order template filled with `data`.
    public init(template: OrderTemplate, data: JSONObject) throws(PassmintError) {
        self.init(
            orderJSON: try template.render(data: data), files: template.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) },
            source: template.folder)
    }

    /// The page. `language` picks the `.lproj` strings (the first language when nil); dates are shown in `timeZone`.
    public func html(language: String? = nil, timeZone: TimeZone = .current) -> String {
        let page = OrderPreviewPage(preview: self, language: language, timeZone: timeZone)
        return page.document()
    }

    /// The `<lang>.lproj/order.strings` entries of `language` (or of the first language), key → text.
    func strings(language: String?) -> [String: String] {
        let stringsFiles = files.filter { $0.path.hasSuffix(".lproj/order.strings") }.sorted { $0.path < $1.path }
        let chosen = language.flatMap { code in stringsFiles.first { $0.path == "\(code).lproj/order.strings" } } ?? stringsFiles.first
        guard let chosen, let entries = try? StringsFile.parse(chosen.bytes) else { return [:] }
        return Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// A `data:` URL of the largest file an image name stands for (`logo` → `logo@3x.png`, `logo@2x.png`, `logo.png`).
    func imageURL(_ name: String?) -> String? {
        guard let name else { return nil }
        let stem = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
        for candidate in [stem + "@3x.png", stem + "@2x.png", stem + ".png", name] {
            if let file = files.first(where: { $0.path == candidate }) {
                return "data:image/png;base64," + Data(file.bytes).base64EncodedString()
            }
        }
        return nil
    }
}

import ArgumentParser
import Foundation
import Passmint
import PassmintPreview

extension PreviewCommand {
    /// Whether `path` is an order: an `.order` package or a template folder holding `order.json`.
    static func isOrder(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".order") && !FileManager.default.fileExists(atPath: path + "/pass.json")
            || FileManager.default.fileExists(atPath: path + "/order.json")
    }

    /// Writes the HTML preview of an order (Wallet's order screen: status, fulfillment progress, items, payment), and
    /// with `--png` its screenshot by headless Chromium, as for passes.
    func writeOrderPreview(timeZone: TimeZone) throws {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let preview =
            try isFolder.boolValue
            ? OrderPreview(template: OrderTemplate(folder: path), data: data.load())
            : OrderPreview(order: FileIO.readArchive(path, what: "order"), source: path)
        try FileIO.writeAtomically(Array(preview.html(language: language, timeZone: timeZone).utf8), to: output)
        print("\(output): preview of the order \(path)")
        if let png {
            try PreviewScreenshot.capture(html: output, png: png, size: Self.orderSize(preview.orderJSON), scale: scale)
            print("\(png): screenshot by headless Chromium")
        }
    }

    /// A window big enough for the order's page (a 420-pixel column): its heading, each fulfillment (with a pickup
    /// code), each line item and the payment summary.
    static func orderSize(_ json: JSONObject) -> (width: Int, height: Int) {
        let fulfillments = json["fulfillments"]?.arrayValue ?? []
        let codes = fulfillments.filter { $0["barcode"] != nil }.count
        let items = json["lineItems"]?.arrayValue?.count ?? 0
        let summary = json["payment"]?["summaryItems"]?.arrayValue?.count ?? 0
        let payment = json["payment"] == nil ? 0 : 140 + 30 * summary
        return (468, 260 + 300 * fulfillments.count + 180 * codes + 64 * items + payment)
    }
}

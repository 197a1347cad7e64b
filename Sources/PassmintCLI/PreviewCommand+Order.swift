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

    /// Writes the HTML preview of an order (Wallet's order screen: status, fulfillment progress, items, payment).
    func writeOrderPreview(timeZone: TimeZone) throws {
        guard png == nil else { throw ValidationError("--png is not available for orders yet; open the HTML page instead") }
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let preview =
            try isFolder.boolValue
            ? OrderPreview(template: OrderTemplate(folder: path), data: data.load())
            : OrderPreview(order: FileIO.readArchive(path, what: "order"), source: path)
        try FileIO.writeAtomically(Array(preview.html(language: language, timeZone: timeZone).utf8), to: output)
        print("\(output): preview of the order \(path)")
    }
}

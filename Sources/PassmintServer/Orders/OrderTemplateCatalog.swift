import Foundation
import HTTPTypes
import Passmint
import Synchronization

/// The order templates the issuing API names: `<Name>.order/` folders, each read once and kept.
final class OrderTemplateCatalog: Sendable {
    let folder: String
    private let loaded = Mutex<[String: OrderTemplate]>([:])

    init(folder: String) { self.folder = folder }

    /// The template `name` (`Shipment` or `Shipment.order`); 404 naming the folder when there is none, 422 when it
    /// does not load.
    func template(named name: String) throws(ServiceFailure) -> OrderTemplate {
        let base = Self.canonicalName(name)
        let allowed = base.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || ($0 < 128 && isalnum(Int32($0)) != 0) }
        guard !base.isEmpty, base.utf8.count <= 128, allowed else {
            throw .badRequest("template must name an order template folder (letters, digits, - and _), not \"\(name)\"")
        }
        if let template = loaded.withLock({ $0[base] }) { return template }
        let path = folder + "/" + base + ".order"
        guard FileManager.default.fileExists(atPath: path) else {
            throw ServiceFailure(.notFound, "there is no order template \(base).order in the order templates folder")
        }
        do {
            let template = try OrderTemplate(folder: path)
            loaded.withLock { $0[base] = template }
            return template
        } catch {
            throw .unprocessable("order template \(base): " + error.message.replacingOccurrences(of: folder + "/", with: ""))
        }
    }

    /// The name a template is known by (without `.order`).
    static func canonicalName(_ name: String) -> String { name.hasSuffix(".order") ? String(name.dropLast(".order".count)) : name }

    /// The name an order's row records as its template: the folder's name (with `.order`), which no pass template has,
    /// so that nothing that walks a pass template's passes (a publish, a template-wide change) meets an order.
    static func storedName(_ name: String) -> String { canonicalName(name) + ".order" }
}

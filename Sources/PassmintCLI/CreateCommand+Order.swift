import Foundation
import Passmint

extension CreateCommand {
    /// `passmint create` of a template folder holding `order.json`: a signed Wallet order package.
    func createOrder() throws {
        let template = try OrderTemplate(folder: template)
        let builder = OrderBuilder(identities: try signing.loadIdentities(), options: .init(allowExpired: allowExpired))
        let order = try builder.build(template: template, data: try data.load())
        for warning in order.warnings { printError("\(warning)") }
        try FileIO.writeAtomically(order.archive, to: output)
        print(
            "wrote \(output) (\(order.archive.count) bytes, \(BuiltOrder.mimeType), \(order.orderTypeIdentifier) order \(order.orderIdentifier))"
        )
    }
}

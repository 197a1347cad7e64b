import ArgumentParser
import Foundation
import Passmint

extension VerifyCommand {
    /// Whether `bytes` read from `file` are a Wallet order package: named `.order`, or an archive holding `order.json`
    /// and no `pass.json`.
    static func isOrder(_ bytes: [UInt8], file: String) -> Bool {
        if file.lowercased().hasSuffix(".order") { return true }
        guard let names = try? ZipArchive.read(bytes, source: file).map(\.name) else { return false }
        return names.contains("order.json") && !names.contains("pass.json")
    }

    /// Verifies an order package and prints its report.
    func verifyOrder(_ bytes: [UInt8], root: Certificate?) throws {
        var previousJSON: JSONObject?
        if let previous {
            let previousBytes = try FileIO.readArchive(previous, what: "previous order")
            let orderBytes =
                try previous.lowercased().hasSuffix(".json")
                ? previousBytes : ZipArchive.read(previousBytes, source: previous).first { $0.name == "order.json" }?.bytes
            guard let orderBytes, let object = try? JSONParser.value(orderBytes).objectValue else {
                throw ValidationError("--previous \(previous): no order.json object in it (give the earlier .order or its order.json)")
            }
            previousJSON = object
        }
        let report = OrderVerifier(root: root, team: team).verify(bytes, source: file, previous: previousJSON)
        try show(report)
    }
}

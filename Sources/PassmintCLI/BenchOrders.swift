import Foundation
import Passmint
import Synchronization

/// `passmint bench --orders N`: Wallet orders built beside passes in the same run. Both are built the same way (in
/// memory: template filled with a row of their own, linted, hashed, signed, zipped; nothing written) on the same
/// threads, orders first, then as many passes, so that the two rates compare what a pass and an order cost.
struct BenchOrders {
    var template: OrderTemplate
    var sample: JSONObject
    var builder: OrderBuilder

    struct Figures {
        var orders: Int
        var ordersPerSecond: Double
        var passesPerSecond: Double
        var bytesPerOrder: Int

        func printText(jobs: Int) {
            print("orders and passes built in memory (\(orders) each, \(jobs) threads)")
            print("  orders/s          \(Int(ordersPerSecond)) (\(bytesPerOrder) bytes an order)")
            print("  passes/s          \(Int(passesPerSecond))")
            print("  orders per pass   \(String(format: "%.3f", ordersPerSecond / passesPerSecond))")
        }

        var json: JSONValue {
            [
                "built": .number(JSONNumber(orders)), "ordersPerSecond": .number(JSONNumber(ordersPerSecond.rounded())),
                "passesInMemoryPerSecond": .number(JSONNumber(passesPerSecond.rounded())),
                "bytesPerOrder": .number(JSONNumber(bytesPerOrder)),
            ]
        }
    }

    /// The sample data made the row of order `index`: a new order identifier, the numbers and texts made its own.
    func row(_ index: Int) -> JSONObject {
        var row = JSONObject()
        for member in sample {
            switch member.value {
            case .number(let number): row[member.key] = .number(JSONNumber(number.doubleValue + Double(index % 997)))
            case .string(let text) where ["givenName", "familyName", "street", "orderNumber"].contains(member.key):
                row[member.key] = .string("\(text)-\(index)")
            default: row[member.key] = member.value
            }
        }
        row["orderIdentifier"] = .string(String(format: "BENCH-ORDER-%07d", index))
        return row
    }

    /// Builds `count` orders, then `count` passes of `passTemplate`, each set on `jobs` threads; their rates.
    func measure(count: Int, jobs: Int, passTemplate: PassTemplate, passSample: JSONObject, passBuilder: PassBuilder) throws -> Figures {
        let orderRows = (0..<count).map(row)
        let passRows = (0..<count).map { BenchCommand.row(passSample, $0) }
        let bytes = Atomic<Int>(0)
        let orderSeconds = try Self.time(count: count, jobs: jobs) { index in
            let built = try builder.build(template: template, data: orderRows[index])
            if index == 0 { bytes.store(built.archive.count, ordering: .relaxed) }
        }
        let passSeconds = try Self.time(count: count, jobs: jobs) { index in
            _ = try passBuilder.sign(PassInput(template: passTemplate, data: passRows[index]))
        }
        return Figures(
            orders: count, ordersPerSecond: Double(count) / orderSeconds, passesPerSecond: Double(count) / passSeconds,
            bytesPerOrder: bytes.load(ordering: .relaxed))
    }

    /// Runs `work` for 0..<count on `jobs` threads taking the next index each; the wall-clock seconds. The first
    /// error stops the run and is thrown.
    private static func time(count: Int, jobs: Int, _ work: @Sendable (Int) throws -> Void) throws -> Double {
        let next = Atomic<Int>(0)
        let failure = Mutex<PassmintError?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count, failure.withLock({ $0 == nil }) else { return }
                do {
                    try work(index)
                } catch {
                    let message = (error as? PassmintError) ?? PassmintError(.invalidOrder, "\(error)")
                    failure.withLock { $0 = $0 ?? message }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

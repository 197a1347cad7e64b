import Foundation
import FuzzDriver
import Passmint
import PassmintBatch

/// CSV and JSON Lines rows, read from a file as `passmint batch` reads them (delimiter and encoding detected).
let path = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-fuzz-\(getpid())").path

runFuzzer { data, size in
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    for name in ["rows.csv", "rows.jsonl"] {
        let file = path + "-" + name
        guard (try? bytes.write(to: URL(fileURLWithPath: file))) != nil else { return 0 }
        if var input = try? BatchInput(path: file) {
            var count = 0
            while let row = input.next(), count < 10_000 {
                _ = row.values
                count += 1
            }
        }
        try? FileManager.default.removeItem(atPath: file)
    }
    return 0
}

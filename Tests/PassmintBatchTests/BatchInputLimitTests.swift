import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// A data file's rows are capped as the service caps an upload's lines (16 MiB): a longer row is an error of its row,
/// skipped without being held, and the rows after it are read as usual.
@Suite(.computeThreads) struct BatchInputLimitTests {
    let long = String(repeating: "x", count: CSVReader.maximumRecordBytes + 1)

    func messages(_ name: String, _ text: String) throws -> [String] {
        let url = TestEnvironment.temporaryFolder("limits").appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        var input = try BatchInput(path: url.path)
        var rows: [String] = []
        while let row = input.next() {
            // Cut: a failure must not print the row's 16 MiB.
            switch row.values {
            case .success(let values):
                rows.append(String("row \(row.number) (line \(row.line)): \(values["serialNumber"]?.stringValue ?? "")".prefix(200)))
            case .failure(let error): rows.append(String("row \(row.number) (line \(row.line)) error: \(error.message)".prefix(200)))
            }
        }
        return rows
    }

    @Test func aCSVRowOverTheLimitIsAnErrorOfItsRow() throws {
        let rows = try messages("long.csv", "serialNumber,name\nA,a\nB,\"\(long)\"\nC,c\n")
        #expect(rows.count == 3)
        #expect(rows[0] == "row 1 (line 2): A")
        #expect(rows[1].hasPrefix("row 2 (line 3) error: the row is longer than 16 MiB, the limit of a row"))
        #expect(rows[2] == "row 3 (line 4): C")
    }

    @Test func aJSONLinesLineOverTheLimitIsAnErrorOfItsRow() throws {
        let rows = try messages("long.jsonl", "{\"serialNumber\":\"A\"}\n{\"serialNumber\":\"\(long)\"}\n{\"serialNumber\":\"C\"}\n")
        #expect(rows.count == 3)
        #expect(rows[0] == "row 1 (line 1): A")
        #expect(rows[1].hasPrefix("row 2 (line 2) error: is longer than 16 MiB, the limit of a row"))
        #expect(rows[2] == "row 3 (line 3): C")
    }

    @Test func aHeaderNameIsCutInMessages() throws {
        let url = TestEnvironment.temporaryFolder("limits").appendingPathComponent("twice.csv")
        let name = String(repeating: "y", count: 100_000)
        try Data("\(name),\(name)\n1,2\n".utf8).write(to: url)
        do {
            _ = try BatchInput(path: url.path)
            Issue.record("expected an error")
        } catch {
            let message = error.message
            #expect(message.utf8.count < 500, "\(message.utf8.count) bytes: \(message.prefix(300))")
            #expect(message.contains("names \"yyyy") && message.contains("… (100000 bytes)\" twice"), "\(message.prefix(300))")
        }
    }
}

import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

@Suite(.computeThreads) struct BatchInputTests {
    func write(_ text: String, name: String = "rows.csv", bytes: [UInt8]? = nil) throws -> String {
        let url = TestEnvironment.temporaryFolder().appendingPathComponent(name)
        try Data(bytes ?? Array(text.utf8)).write(to: url)
        return url.path
    }

    func rows(_ path: String) throws -> [BatchRow] {
        var input = try BatchInput(path: path)
        var rows: [BatchRow] = []
        while let row = input.next() { rows.append(row) }
        return rows
    }

    @Test func readsRFC4180Quoting() throws {
        let csv = "serialNumber,name,note\r\n1,\"Dupont, Jean\",\"said \"\"hi\"\"\"\r\n2,Zoë,\"two\nlines\"\r\n\r\n3,李小龙,\n"
        let rows = try rows(write(csv, bytes: [0xEF, 0xBB, 0xBF] + Array(csv.utf8)))
        #expect(rows.count == 3)
        let first = try rows[0].values.get()
        #expect(first["serialNumber"] == "1")
        #expect(first["name"] == "Dupont, Jean")
        #expect(first["note"] == "said \"hi\"")
        #expect(try rows[1].values.get()["note"] == "two\nlines")
        #expect(rows[2].line == 6)
        #expect(try rows[2].values.get()["name"] == "李小龙")
        #expect(try rows[2].values.get()["note"] == "")
    }

    @Test func wrongFieldCountIsARowError() throws {
        let rows = try rows(write("serialNumber,name\n1,a\n2,b,c\n3,d\n"))
        #expect(rows.count == 3)
        guard case .failure(let error) = rows[1].values else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message.contains("3 field(s)"))
        #expect(rows[1].number == 2)
        #expect((try? rows[2].values.get()) != nil)
    }

    @Test func unterminatedQuoteIsReported() throws {
        let rows = try rows(write("serialNumber,name\n1,\"open\n"))
        guard case .failure(let error) = rows.last?.values else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message.contains("not closed"))
    }

    @Test func badHeaderIsAnError() throws {
        #expect(throws: PassmintError.self) { try BatchInput(path: write("a,,b\n1,2,3\n")) }
        #expect(throws: PassmintError.self) { try BatchInput(path: write("a,a\n1,2\n")) }
        #expect(throws: PassmintError.self) { try BatchInput(path: write("")) }
    }

    @Test func jsonLinesKeepTypes() throws {
        let rows = try rows(
            write("{\"serialNumber\": \"A\", \"points\": 12}\n\n[1]\n{\"serialNumber\": 7, \"vip\": true}\n{broken\n", name: "rows.jsonl"))
        #expect(rows.count == 4)
        #expect(try rows[0].values.get()["points"] == 12)
        guard case .failure = rows[1].values else {
            Issue.record("an array is not a row")
            return
        }
        #expect(try rows[2].values.get()["vip"] == true)
        #expect(rows[2].line == 4)
        guard case .failure(let error) = rows[3].values else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message.contains("not valid JSON"))
    }

    @Test func estimatesRowCount() throws {
        #expect(BatchInput.estimatedRowCount(path: try write("h\n1\n2\n3")) == 3)
        #expect(BatchInput.estimatedRowCount(path: try write("{}\n{}\n", name: "r.jsonl")) == 2)
    }

    @Test func serialFileNames() {
        #expect(SerialFileName.fileName(for: "MLC-000123") == "MLC-000123.pkpass")
        let odd = SerialFileName.fileName(for: "a/b c")
        #expect(odd.hasPrefix("a_b_c-") && odd.hasSuffix(".pkpass") && odd.count == "a_b_c-".count + 8 + 7)
        #expect(SerialFileName.fileName(for: "a/b") != SerialFileName.fileName(for: "a?b"))
        #expect(SerialFileName.fileName(for: "../etc").hasPrefix("_._etc-"))
        #expect(SerialFileName.fileName(for: String(repeating: "x", count: 300)).count == 100 + 9 + 7)
        #expect(SerialFileName.fileName(for: "Zoë").hasPrefix("Zo_-"))
    }

    @Test func tokensAreURLSafeAnd128Bits() {
        let tokens = Set((0..<100).map { _ in AuthenticationToken.make() })
        #expect(tokens.count == 100)
        for token in tokens {
            #expect(token.count == 22)
            #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
    }

    @Test func csvTextBecomesNumbersWhereTheTemplateNeedsThem() throws {
        let template = try PassTemplate(folder: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass").path)
        #expect(template.placeholderKinds["points"] == .number)
        let typed = template.typed(["points": "1250", "memberName": "007", "pointsToNextReward": "lots"])
        #expect(typed["points"] == 1250)
        #expect(typed["memberName"] == "007")
        #expect(typed["pointsToNextReward"] == "lots")
    }

    @Test func aLoneCRendsACSVRow() throws {
        let url = TestEnvironment.temporaryFolder().appendingPathComponent("mac.csv")
        try Data("serialNumber,name\r1,Ann\r2,Bob\r\n3,\"C\rD\"\r".utf8).write(to: url)
        var input = try BatchInput(path: url.path)
        var rows: [BatchRow] = []
        while let row = input.next() { rows.append(row) }
        #expect(rows.count == 3, "\(rows.map(\.values))")
        #expect(try rows[0].values.get()["name"] == "Ann")
        #expect(try rows[1].values.get()["serialNumber"] == "2")
        #expect(try rows[2].values.get()["name"] == "C\rD", "a CR inside quotes stays in the field")
    }
}

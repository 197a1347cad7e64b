import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct JSONTests {
    @Test func parsesAndWritesKeepingOrderAndNumbers() throws {
        let text = #"{"z": 1, "a": [1.50, -2e3, true, null], "s": "caf\u00e9 \ud83d\ude00 \"q\" \/"}"#
        let value = try JSONParser.value(Array(text.utf8))
        #expect(value.objectValue?.keys == ["z", "a", "s"])
        #expect(value["a"]?.arrayValue?.first?.numberValue?.text == "1.50")
        #expect(value["s"]?.stringValue == "café 😀 \"q\" /")
        let compact = JSONWriter.string(value, style: .compact)
        #expect(compact == #"{"z":1,"a":[1.50,-2e3,true,null],"s":"café 😀 \"q\" /"}"#)
        #expect(try JSONParser.value(Array(compact.utf8)) == value)
    }

    @Test func reportsLineAndColumn() {
        let text = "{\n  \"a\": 1,\n  \"b\": tru\n}"
        #expect {
            try JSONParser.value(Array(text.utf8))
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == 3 && error.column == 8
        }
    }

    @Test func missingCommaNamesTheKey() {
        let text = "{\n \"a\": 1\n \"b\": 2}"
        do {
            _ = try JSONParser.value(Array(text.utf8))
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("\"a\""))
        }
    }

    @Test func trailingCommasOnlyWhenAllowed() throws {
        let text = Array(#"{"a": [1, 2,], "b": 3,}"#.utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.value(text) }
        let result = try JSONParser.parse(text, options: .init(allowTrailingCommas: true))
        #expect(result.trailingCommas.count == 2)
        #expect(result.value["a"]?.arrayValue?.count == 2)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\"}", "01", "1.", "\"\\x\"", "\"a\nb\"", "{} x", "\"\\ud800\""])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.value(Array(text.utf8)) }
    }

    @Test func escapesControlCharacters() {
        let value: JSONValue = ["k": .string("a\u{1}\n\t\"")]
        #expect(JSONWriter.string(value, style: .compact) == #"{"k":"a\u0001\n\t\""}"#)
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.value([0x22, 0xFF, 0xFE, 0x22]) }
    }
}

@Suite(.computeThreads) struct W3CDateTests {
    @Test(arguments: [
        ("2026-12-24T19:30:00+01:00", 1_798_137_000.0), ("2026-12-24T18:30Z", 1_798_137_000.0), ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("1969-12-31T23:59:59.5Z", -0.5), ("2026-12-24T19:30:00.250-08:00", 1_798_169_400.25),
    ])
    func parsesWithTimeZones(_ text: String, _ epoch: Double) {
        #expect(W3CDate.parse(text)?.timeIntervalSince1970 == epoch)
    }

    @Test(arguments: [
        "2026-12-24", "2026-12-24T19:30:00", "2026-02-30T10:00Z", "2026-13-01T10:00Z", "2026-12-24T19:30:00+0100", "2026-12-24 19:30Z", "x",
    ])
    func rejectsIncompleteOrInvalidDates(_ text: String) {
        #expect(W3CDate.parse(text) == nil)
    }
}

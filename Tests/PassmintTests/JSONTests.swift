import Testing
@testable import Passmint

@Suite struct JSONTests {
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

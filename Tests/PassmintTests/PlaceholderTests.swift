import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct PlaceholderTests {
    let data: JSONObject = ["points": 1250, "name": "Zoë", "member": ["id": 1], "flag": true]

    @Test func wholeStringKeepsTheDataType() throws {
        let template: JSONValue = ["value": "{{points}}", "flag": "{{ flag }}"]
        let result = try Placeholders.substitute(template, data: data, file: "pass.json")
        #expect(result["value"] == .number(JSONNumber(1250)))
        #expect(result["flag"] == .bool(true))
    }

    @Test func insideLongerStringIsText() throws {
        let template: JSONValue = ["greeting": "Hello {{name}}, you have {{points}} points", "list": ["{{name}}!"]]
        let result = try Placeholders.substitute(template, data: data, file: "pass.json")
        #expect(result["greeting"]?.stringValue == "Hello Zoë, you have 1250 points")
        #expect(result["list"]?.arrayValue?.first?.stringValue == "Zoë!")
    }

    @Test func dataCannotBreakTheJSON() throws {
        let hostile: JSONObject = ["name": #"", "voided": true, "x": ""#]
        let result = try Placeholders.substitute(["a": "{{name}}", "b": "x {{name}}"], data: hostile, file: "pass.json")
        #expect(result.objectValue?.keys == ["a", "b"])
        let bytes = JSONWriter.data(result)
        #expect(try JSONParser.value(bytes) == result)
    }

    @Test func missingValueNamesPlaceholderFileAndPath() {
        do {
            _ = try Placeholders.substitute(
                ["storeCard": ["primaryFields": [["value": "{{balance}}"]]]], data: data, file: "Card.pass/pass.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidData)
            #expect(error.message.contains("{{balance}}"))
            #expect(error.message.contains("Card.pass/pass.json"))
            #expect(error.message.contains("storeCard.primaryFields[0].value"))
        }
    }

    @Test func objectValueCannotBeInterpolated() {
        #expect(throws: PassmintError.self) {
            try Placeholders.substitute(["a": "id: {{member}}"], data: data, file: "pass.json")
        }
    }

    @Test func findsNamesAndIgnoresNonPlaceholders() {
        let template: JSONValue = ["a": "{{one}} {{two}}", "b": ["{{one}}"], "c": "{ {x} } {{}} {{bad name}}"]
        #expect(Placeholders.names(in: template) == ["one", "two"])
    }
}

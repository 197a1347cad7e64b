import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// The memo that lints a template's passes rule by rule finds exactly what linting each pass alone finds, and runs
/// again only the rules that read what changed.
@Suite(.computeThreads) struct LintMemoTests {
    static let templateNames = [
        "BoardingPass", "Coupon", "EventTicket", "Festival", "Generic", "Loyalty", "PosterEventTicket", "Rewards",
        "SemanticBoardingPass", "StoreCard",
    ]

    static func rendered(_ name: String) throws -> (template: PassTemplate, sample: JSONObject, pass: JSONObject) {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        let template = try PassTemplate(folder: root.appendingPathComponent("\(name).pass").path)
        let sample = try JSONParser.value(try FileIO.read(root.appendingPathComponent("\(name).json").path, what: "sample")).objectValue!
        var pass = try template.render(data: sample)
        pass["passTypeIdentifier"] = pass["passTypeIdentifier"] ?? "pass.dev.passmint.example"
        pass["teamIdentifier"] = pass["teamIdentifier"] ?? "DEVTEAM123"
        return (template, sample, pass)
    }

    /// Values that break one rule or another: wrong types, empty, long, NUL, placeholders, canonically equivalent
    /// spellings whose bytes differ.
    static let oddValues: [JSONValue] = [
        .null, true, 0, 2, .number(JSONNumber(literal: "1e999")), "", "x", .string(String(repeating: "é", count: 40)),
        .string(String(repeating: "e\u{301}", count: 40)), "a\u{0}b", "{{placeholder}}", "http://example.com", "rgb(300, 0, 0)",
        "2026-13-45", [], [1, "x"], ["key": "k"], [:],
    ]

    /// Passes that differ from `pass` in one place each: every top-level key removed or given each odd value, each
    /// field of the style changed, keys added.
    static func variants(of pass: JSONObject) -> [JSONObject] {
        var variants: [JSONObject] = [pass, JSONObject(pass.members.reversed())]
        for member in pass {
            var removed = pass
            removed[member.key] = nil
            variants.append(removed)
            for value in oddValues {
                var changed = pass
                changed[member.key] = value
                variants.append(changed)
            }
            if case .object(let object) = member.value {
                for inner in object {
                    for value in oddValues.prefix(6) + [.array([["key": "dup", "value": 1], ["key": "dup"]])] {
                        var changedObject = object
                        changedObject[inner.key] = value
                        var changed = pass
                        changed[member.key] = .object(changedObject)
                        variants.append(changed)
                    }
                }
            }
        }
        for style in PassJSONValidator.styleKeys {
            guard let object = pass[style]?.objectValue else { continue }
            for arrayName in PassJSONValidator.fieldArrays {
                for (index, element) in (object[arrayName]?.arrayValue ?? []).enumerated() {
                    guard let field = element.objectValue else { continue }
                    let changes: [(String, JSONValue)] =
                        oddValues.map { ("value", $0) } + [
                            ("dateStyle", "PKDateStyleShort"), ("numberStyle", "PKNumberStyleDecimal"), ("a\u{0}b", 1), ("row", 1),
                            ("key", "dup"), ("key", .null), ("changeMessage", "no placeholder"), ("currencyCode", "eur"),
                        ]
                    for (key, value) in changes {
                        var changedField = field
                        changedField[key] = value
                        var fields = object[arrayName]!.arrayValue!
                        fields[index] = .object(changedField)
                        var changedStyle = object
                        changedStyle[arrayName] = .array(fields)
                        var changed = pass
                        changed[style] = .object(changedStyle)
                        variants.append(changed)
                    }
                }
            }
        }
        for key in ["storeCard", "eventTicket", "nfc", "groupingIdentifier", "appLaunchURL", "relevantDates", "barcode", "semantics"] {
            for value in oddValues.suffix(4) {
                var added = pass
                added[key] = value
                variants.append(added)
            }
        }
        return variants
    }

    @Test(arguments: templateNames)
    func theMemoFindsWhatLintingAloneFinds(_ name: String) throws {
        let pass = try Self.rendered(name).pass
        for options in [LintOptions(), LintOptions(allowHTTPWebService: true)] {
            let memo = LintMemo(reference: pass, options: options)
            #expect(memo.referenceFindings == PassLinter.lintJSON(pass, options: options))
            for variant in Self.variants(of: pass) {
                #expect(
                    memo.lint(variant) == PassLinter.lintJSON(variant, options: options), "\(name): \(JSONWriter.string(.object(variant)))")
            }
        }
    }

    @Test(arguments: templateNames)
    func aMemoMadeFromABrokenPassStillFindsWhatLintingAloneFinds(_ name: String) throws {
        let pass = try Self.rendered(name).pass
        for reference in Self.variants(of: pass).enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
            let memo = LintMemo(reference: reference, options: LintOptions())
            for variant in [pass, reference] {
                #expect(memo.lint(variant) == PassLinter.lintJSON(variant), "\(name)")
            }
        }
    }

    /// An NFC message of 64 bytes precomposed is 80 when decomposed; Swift's `==` calls the two equal.
    @Test func aCanonicallyEqualValueWithOtherBytesIsLintedAgain() throws {
        var pass = try Self.rendered("Loyalty").pass
        let precomposed = String(repeating: "é", count: 32)
        let decomposed = String(repeating: "e\u{301}", count: 32)
        #expect(precomposed == decomposed)
        pass["nfc"] = ["message": .string(precomposed), "encryptionPublicKey": pass["nfc"]!["encryptionPublicKey"]!]
        let memo = LintMemo(reference: pass, options: LintOptions())
        #expect(!memo.referenceFindings.contains { $0.code == "nfc-message-length" })
        var longer = pass
        longer["nfc"] = ["message": .string(decomposed), "encryptionPublicKey": pass["nfc"]!["encryptionPublicKey"]!]
        #expect(memo.lint(longer).contains { $0.code == "nfc-message-length" })
    }

    /// Rows of a batch differ in what the data fills in: the rules that read only the rest are not run again.
    @Test func aRowRunsOnlyTheRulesThatReadWhatItsDataFilledIn() throws {
        let (template, sample, pass) = try Self.rendered("Loyalty")
        let memo = LintMemo(reference: pass, options: LintOptions())
        var data = sample
        data["serialNumber"] = "MLC-2"
        data["memberName"] = "Ana Lima"
        data["points"] = 3
        var row = try template.render(data: data)
        row["passTypeIdentifier"] = pass["passTypeIdentifier"]
        row["teamIdentifier"] = pass["teamIdentifier"]
        let rerun = memo.rulesToRun(for: row)
        #expect(rerun.contains(.requiredKeys) && rerun.contains(.fields))
        #expect(!rerun.contains(.colors) && !rerun.contains(.identifiers) && !rerun.contains(.relevance))
        #expect(rerun.count < JSONRule.allCases.count / 2 + 3)
        #expect(memo.lint(row) == PassLinter.lintJSON(row))
        #expect(memo.rulesToRun(for: pass).filter { $0 != .topLevelTypes && $0 != .values }.isEmpty)
    }

    /// Through the builder: a template's bad row is refused with the message it gets alone, after good rows.
    @Test func aBadRowAfterGoodOnesFailsAsItWouldAlone() throws {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        let (template, sample, _) = try Self.rendered("Loyalty")
        let builder = PassBuilder(identity: try TestTemplates.identity())
        _ = try builder.prepare(PassInput(template: template, data: sample))
        var bad = sample
        bad["nfcMessage"] = .string(String(repeating: "x", count: 65))
        let fresh = try PassTemplate(folder: root.appendingPathComponent("Loyalty.pass").path)
        let alone = #expect(throws: PassmintError.self) { try builder.prepare(PassInput(template: fresh, data: bad)) }
        let afterGood = #expect(throws: PassmintError.self) { try builder.prepare(PassInput(template: template, data: bad)) }
        #expect(alone?.description.contains("nfc-message-length") == true)
        #expect(alone?.description == afterGood?.description)
    }
}

/// Random changes anywhere in the pass, deep or shallow, several at once: the memo still finds what linting alone
/// finds. Seeded, so a failure repeats.
@Suite(.computeThreads) struct LintMemoRandomTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `value` with one random change somewhere inside it.
    static func mutate(_ value: JSONValue, _ random: inout SplitMix, depth: Int = 0) -> JSONValue {
        let odd = LintMemoTests.oddValues
        switch value {
        case .object(var object) where !object.members.isEmpty && Int.random(in: 0..<4, using: &random) > 0:
            let member = object.members[Int.random(in: 0..<object.members.count, using: &random)]
            switch Int.random(in: 0..<6, using: &random) {
            case 0: object[member.key] = nil
            case 1: object["x\(Int.random(in: 0..<3, using: &random))"] = odd.randomElement(using: &random)!
            default: object[member.key] = mutate(member.value, &random, depth: depth + 1)
            }
            return .object(object)
        case .array(var array) where !array.isEmpty && Int.random(in: 0..<4, using: &random) > 0:
            let index = Int.random(in: 0..<array.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: array.remove(at: index)
            case 1: array.append(array[index])
            default: array[index] = mutate(array[index], &random, depth: depth + 1)
            }
            return .array(array)
        default:
            return odd.randomElement(using: &random)!
        }
    }

    @Test(arguments: LintMemoTests.templateNames)
    func randomChangesAreLintedAsAlone(_ name: String) throws {
        let pass = try LintMemoTests.rendered(name).pass
        var random = SplitMix(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let memo = LintMemo(reference: pass, options: LintOptions())
        for _ in 0..<400 {
            var changed = JSONValue.object(pass)
            for _ in 0..<Int.random(in: 1...3, using: &random) { changed = Self.mutate(changed, &random) }
            guard let variant = changed.objectValue else { continue }
            #expect(memo.lint(variant) == PassLinter.lintJSON(variant), "\(name): \(JSONWriter.string(changed))")
        }
    }
}

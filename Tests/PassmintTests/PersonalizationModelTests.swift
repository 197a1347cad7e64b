import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

@Suite(.computeThreads) struct PersonalizationModelTests {
    @Test func readsAndWritesPersonalizationJSON() throws {
        let bytes = Array(
            #"{"requiredPersonalizationFields":["PKPassPersonalizationFieldName","PKPassPersonalizationFieldEmailAddress"],"description":"Join","termsAndConditions":"<a href=\"x\">T</a>"}"#
                .utf8)
        let request = try PersonalizationRequest(bytes: bytes)
        #expect(request.requiredFields == [.name, .emailAddress])
        #expect(request.description == "Join")
        #expect(try PersonalizationRequest(bytes: JSONWriter.data(request.json, style: .compact)) == request)
    }

    @Test(arguments: [
        (#"[]"#, "JSON object"),
        (#"{"description":"x"}"#, "requiredPersonalizationFields"),
        (
            #"{"requiredPersonalizationFields":["PKPassPersonalizationFieldShoeSize"],"description":"x"}"#,
            "requiredPersonalizationFields[0]"
        ),
        (#"{"requiredPersonalizationFields":["PKPassPersonalizationFieldName"]}"#, "description"),
    ])
    func badPersonalizationJSONNamesTheKey(_ text: String, _ named: String) {
        #expect { try PersonalizationRequest(bytes: Array(text.utf8), file: "Rewards.pass/personalization.json") } throws: { error in
            let message = (error as? PassmintError)?.message ?? ""
            return message.contains(named) && message.contains("Rewards.pass/personalization.json")
        }
    }

    @Test func infoAnswersTheRequestedFields() throws {
        let info = try PersonalizationInfo(json: [
            "givenName": " Zoë ", "familyName": "Müller", "postalCode": "1070", "unknownKey": "ignored",
        ])
        #expect(info.displayName == "Zoë Müller", "given and family names joined, whitespace trimmed")
        #expect(info.missing([.name, .postalCode]).isEmpty)
        #expect(info.missing([.name, .emailAddress, .phoneNumber]) == [.emailAddress, .phoneNumber])
        #expect(info.placeholderValues["personalization.emailAddress"] == "")
        #expect(info.placeholderValues["personalization.displayName"] == "Zoë Müller")
        #expect(info.json == ["givenName": "Zoë", "familyName": "Müller", "postalCode": "1070"])
        #expect(throws: PassmintError.self) { try PersonalizationInfo(json: ["emailAddress": 7]) }
        #expect(throws: PassmintError.self) { try PersonalizationInfo(json: ["fullName": .string(String(repeating: "x", count: 257))]) }
    }

    @Test func personalizedTemplateDropsTheSignUpFiles() throws {
        let template = try PassTemplate(folder: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Rewards.pass").path)
        #expect(template.isPersonalizable)
        #expect(try template.personalizationRequest()?.requiredFields == [.name, .postalCode, .emailAddress])
        let personalized = try template.personalized()
        #expect(!personalized.isPersonalizable)
        #expect(personalized.files.map(\.path) == template.files.map(\.path).filter { !$0.hasPrefix("personalization") })
        #expect(try personalized.personalizationRequest() == nil)
        let loyalty = try PassTemplate(folder: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass").path)
        #expect(!loyalty.isPersonalizable)
    }
}

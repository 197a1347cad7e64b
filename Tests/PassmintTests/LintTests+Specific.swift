import Foundation
import PassmintTestSupport
import Testing

@testable import Passmint

/// Lint rules that depend on options or on how keys combine: the development flag, fallbacks, the watch's barcodes,
/// NFC keys, template placeholders, JSON syntax errors.
extension LintTests {
    @Test func httpIsAWarningWithTheDevFlag() {
        var json = JSONValue.object(Self.clean)
        json.set("webServiceURL", "http://localhost:8080/wallet")
        let found = Self.lint(json.objectValue!, options: LintOptions(allowHTTPWebService: true))
        #expect(found.filter { $0.code == "web-service-url-insecure" }.map(\.severity) == [.warning])
    }

    @Test func classicFallbackAfterNewFormatIsAccepted() {
        var json = JSONValue.object(Self.clean)
        json.set(
            "barcodes",
            [
                ["format": "PKBarcodeFormatEAN13", "message": "1", "messageEncoding": "iso-8859-1"],
                ["format": "PKBarcodeFormatQR", "message": "1", "messageEncoding": "iso-8859-1"],
            ])
        #expect(!Self.lint(json.objectValue!).contains { $0.code == "barcode-fallback-missing" })
    }

    @Test func code128FollowedBySquareCodeIsFineOnTheWatch() {
        var json = JSONValue.object(Self.clean)
        json.set(
            "barcodes",
            [
                ["format": "PKBarcodeFormatCode128", "message": "1", "messageEncoding": "iso-8859-1"],
                ["format": "PKBarcodeFormatQR", "message": "1", "messageEncoding": "iso-8859-1"],
            ])
        #expect(!Self.lint(json.objectValue!).contains { $0.code == "barcode-watch" })
    }

    @Test func boardingPassWithTransitTypeAndFooterIsClean() {
        var json = JSONValue.object(Self.clean)
        json.rename("eventTicket", to: "boardingPass")
        json.set("boardingPass.transitType", "PKTransitTypeTrain")
        json.set("boardingPass.auxiliaryFields[1].row", nil)
        let files = Self.images("icon", 38, 38) + Self.images("logo", 160, 50) + Self.images("footer", 286, 15)
        let found = Self.lint(json.objectValue!, files)
        #expect(found.isEmpty, "\(found.map(\.description))")
    }

    @Test func validNFCAndPersonalizationAreClean() {
        var json = JSONValue.object(Self.clean)
        json.set("nfc", ["message": "m", "encryptionPublicKey": .string(TestTemplates.p256PublicKey), "requiresAuthentication": true])
        json.set("sharingProhibited", true)
        var files = Self.cleanFiles + Self.images("personalizationLogo", 150, 40)
        files.append(
            PassContents.File(
                path: "personalization.json",
                bytes: Array(
                    #"{"requiredPersonalizationFields": ["PKPassPersonalizationFieldName", "PKPassPersonalizationFieldEmailAddress"], "description": "Join the club"}"#
                        .utf8)))
        let found = Self.lint(json.objectValue!, files)
        #expect(found.map(\.code) == ["nfc-certificate"])
    }

    @Test func rsaKeyIsNotAnNFCKey() throws {
        let rsa =
            "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmwIDAQAB"
        var json = JSONValue.object(Self.clean)
        json.set("nfc", ["message": "m", "encryptionPublicKey": .string(rsa)])
        let found = Self.lint(json.objectValue!).filter { $0.code == "nfc-public-key" }
        #expect(found.first?.message.contains("RSA") == true)
    }

    @Test func templatePlaceholdersPassTypeChecks() {
        var json = JSONValue.object(Self.clean)
        json.set("passTypeIdentifier", nil)
        json.set("teamIdentifier", nil)
        json.set("eventTicket.auxiliaryFields[0].value", "{{price}}")
        json.set("expirationDate", "{{expires}}")
        let found = PassLinter.lint(PassContents(source: "t", passJSON: json.objectValue!, files: Self.cleanFiles, isTemplate: true))
        #expect(found.isEmpty, "\(found.map(\.description))")
    }

    @Test func syntaxErrorIsADiagnosticWithLineAndColumn() throws {
        let (json, diagnostics) = PassContents.parsePassJSON(Array("{\n \"a\": 1,\n \"b\" 2\n}".utf8))
        #expect(json == nil)
        #expect(diagnostics.first?.code == "json-syntax")
        #expect(diagnostics.first?.message.contains("line 3") == true)
    }
}

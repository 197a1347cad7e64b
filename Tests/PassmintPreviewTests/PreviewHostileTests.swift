import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// A pass with keys of the wrong type, unknown keys, broken images and impossible barcodes still previews: what
/// cannot be drawn is left out and the findings under the picture say why.
@Suite(.computeThreads) struct PreviewHostileTests {
    static let options = PassPreview.Options(timeZone: TimeZone(identifier: "UTC")!, now: W3CDate.parse("2026-01-01T00:00:00Z")!)

    static func page(_ json: String, files: [PassContents.File] = []) throws -> (PassPreview, String) {
        let object = try #require(try JSONParser.value(Array(json.utf8)).objectValue)
        let preview = PassPreview(contents: PassContents(source: "hostile", passJSON: object, files: files, isTemplate: false))
        return (preview, preview.html(Self.options))
    }

    @Test func wrongTypesEverywhereStillPreview() throws {
        let (preview, html) = try Self.page(
            """
            {"formatVersion": "one", "description": 7, "backgroundColor": "rgb(999, 0, 0)", "foregroundColor": [1],
             "logoText": {"x": 1}, "voided": "yes", "expirationDate": "soon", "barcodes": {"format": "PKBarcodeFormatQR"},
             "barcode": [1, 2], "semantics": "none",
             "coupon": {"headerFields": "nope", "primaryFields": [1, {"label": "no key"}, {"key": "k", "value": {"a": 1}}],
                        "auxiliaryFields": [{"key": "d", "value": "2026-13-45T99:00:00Z", "dateStyle": "PKDateStyleWrong"}],
                        "madeUp": true}}
            """)
        #expect(html.contains("id=\"front\""))
        #expect(html.contains("data-key=\"k\""))
        #expect(html.contains("data-key=\"d\""))
        #expect(preview.diagnostics.contains { $0.code == "key-unknown" && $0.path == "coupon.madeUp" })
        #expect(preview.diagnostics.contains { $0.severity == .error })
        #expect(html.contains("<li class=\"error\">"))
    }

    @Test func anImpossibleBarcodeIsSaidNotDrawn() throws {
        let (_, html) = try Self.page(
            """
            {"formatVersion": 1, "passTypeIdentifier": "pass.x", "serialNumber": "1", "teamIdentifier": "T", "organizationName": "O",
             "description": "d", "generic": {},
             "barcodes": [{"format": "PKBarcodeFormatQR", "message": "東京", "messageEncoding": "iso-8859-1"}]}
            """)
        #expect(html.contains("class=\"barcode-error\""))
        #expect(!html.contains("<figure class=\"barcode"))
    }

    @Test func brokenAndMissingImagesAreSkipped() throws {
        let (preview, html) = try Self.page(
            """
            {"formatVersion": 1, "passTypeIdentifier": "pass.x", "serialNumber": "1", "teamIdentifier": "T", "organizationName": "O",
             "description": "d", "storeCard": {"primaryFields": [{"key": "p", "value": 1}]}}
            """,
            files: [PassContents.File(path: "strip@2x.png", bytes: Array("GIF89a".utf8)), PassContents.File(path: "logo.png", bytes: [])])
        #expect(html.contains("data-key=\"p\""))
        #expect(!html.contains("data:image/png"))
        #expect(preview.diagnostics.contains { $0.file.contains("strip@2x.png") })
    }

    @Test func textIsEscaped() throws {
        let (_, html) = try Self.page(
            """
            {"formatVersion": 1, "passTypeIdentifier": "pass.x", "serialNumber": "1", "teamIdentifier": "T", "organizationName": "O",
             "description": "<script>alert(1)</script>", "logoText": "\\"><img src=x>",
             "generic": {"primaryFields": [{"key": "a\\"b", "label": "<b>", "value": "</div><script>"}]}}
            """)
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<img src=x>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("data-key=\"a&quot;b\""))
    }
}

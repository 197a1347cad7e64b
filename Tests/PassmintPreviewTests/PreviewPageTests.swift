import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// The preview page: one self-contained HTML file with each field where its style puts it, the images inlined, the
/// Watch view, the back, the voided and expired looks, and lint's findings for a broken pass.
@Suite(.computeThreads) struct PreviewPageTests {
    static let templates = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
    static let options = PassPreview.Options(timeZone: TimeZone(identifier: "UTC")!, now: W3CDate.parse("2026-01-01T00:00:00Z")!)

    static func sample(_ name: String) throws -> JSONObject {
        try JSONParser.value(try FileIO.read(templates.appendingPathComponent("\(name).json").path, what: "")).objectValue!
    }

    static func html(_ name: String, _ options: PassPreview.Options = options, data: JSONObject? = nil) throws -> String {
        try PassPreview(templateFolder: templates.appendingPathComponent("\(name).pass").path, data: data ?? sample(name)).html(options)
    }

    /// A copy of template `name` in a temporary folder, its pass.json changed by `change`.
    static func copy(_ name: String, change: (inout JSONObject) -> Void) throws -> String {
        let folder = TestEnvironment.temporaryFolder("preview").appendingPathComponent("\(name).pass")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("\(name).pass"), to: folder)
        let path = folder.appendingPathComponent("pass.json").path
        var json = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        change(&json)
        try FileIO.writeAtomically(JSONWriter.data(.object(json), style: .pretty), to: path)
        return folder.path
    }

    @Test func aStoreCardIsOneSelfContainedPage() throws {
        let page = try Self.html("Loyalty")
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("src=\"http"))
        #expect(!page.contains("url('http"))
        #expect(page.contains("class=\"strip\" style=\"background-image: url('data:image/png;base64,"))
        #expect(page.contains("<figure class=\"barcode square\" data-format=\"PKBarcodeFormatQR\"><svg"))
        #expect(page.contains("id=\"watch-card\""))
        #expect(page.contains("id=\"back\""))
        #expect(page.contains("id=\"diagnostics\""))
    }

    @Test func extraFieldsAreDroppedAsWalletDropsThem() throws {
        let folder = try Self.copy("Generic") { json in
            var fields = json["generic"]!.objectValue!
            fields["headerFields"] = .array((1...5).map { .object(["key": .string("h\($0)"), "label": "H", "value": "v"]) })
            json["generic"] = .object(fields)
        }
        let page = try PassPreview(templateFolder: folder, data: try Self.sample("Generic")).html(Self.options)
        #expect(page.contains("data-key=\"h3\" data-area=\"header\""))
        #expect(!page.contains("data-key=\"h4\" data-area=\"header\""))
    }

    @Test func sidesAndWatchCanBeLeftOut() throws {
        var options = Self.options
        options.side = .front
        options.showsWatch = false
        let front = try Self.html("Coupon", options)
        #expect(front.contains("id=\"front\"") && !front.contains("id=\"back\"") && !front.contains("id=\"watch-card\""))
        options.side = .back
        let back = try Self.html("Coupon", options)
        #expect(!back.contains("id=\"front\"") && back.contains("id=\"back\""))
    }

    @Test func theWatchHidesStripThumbnailAndCode128() throws {
        let folder = try Self.copy("EventTicket") { json in
            json["barcodes"] = [["format": "PKBarcodeFormatCode128", "message": "E-1", "messageEncoding": "iso-8859-1"]]
        }
        let page = try PassPreview(templateFolder: folder, data: try Self.sample("EventTicket")).html(Self.options)
        let watch = String(page[page.range(of: "id=\"watch-card\"")!.lowerBound...])
        #expect(!watch.contains("class=\"thumbnail\""))
        #expect(!watch.contains("class=\"strip\""))
        #expect(!watch.contains("<figure class=\"barcode"))
        let phone = String(page[..<page.range(of: "id=\"watch-card\"")!.lowerBound])
        #expect(phone.contains("class=\"thumbnail\""))
        #expect(phone.contains("data-format=\"PKBarcodeFormatCode128\""))
    }

    @Test func theWatchJoinsABoardingPassRoute() throws {
        let page = try Self.html("BoardingPass")
        let watch = String(page[page.range(of: "id=\"watch-card\"")!.lowerBound...])
        #expect(watch.contains("data-key=\"origin+destination\""))
        #expect(watch.contains("<div class=\"label\">Munich to Lisbon</div><div class=\"value\">MUC <span class=\"transit\""))
    }

    @Test func voidedAndExpiredLooks() throws {
        let voided = try Self.copy("Coupon") { $0["voided"] = true }
        let page = try PassPreview(templateFolder: voided, data: try Self.sample("Coupon")).html(Self.options)
        #expect(page.contains("data-state=\"voided\""))
        #expect(!page.contains("<figure class=\"barcode"), "a voided pass shows no barcode")
        let expired = try Self.copy("Coupon") { $0["expirationDate"] = "2025-01-01T00:00:00Z" }
        let old = try PassPreview(templateFolder: expired, data: try Self.sample("Coupon")).html(Self.options)
        #expect(old.contains("data-state=\"expired\""))
        #expect(old.contains("class=\"pass front style-coupon kind-classic expired\""))
    }

    @Test func theEnhancedLayoutsAreDrawnWhenAskedFor() throws {
        let poster = try Self.html("PosterEventTicket")
        #expect(poster.contains("kind-posterEventTicket"))
        #expect(poster.contains("Northern Lights Live"))
        let boarding = try Self.html("SemanticBoardingPass")
        #expect(boarding.contains("kind-semanticBoardingPass"))
        #expect(boarding.contains("<div class=\"code\">LIS</div>"))
        #expect(boarding.contains("data-transit=\"PKTransitTypeAir\""))
        let classic = try Self.html("BoardingPass")
        #expect(classic.contains("kind-classic"))
        #expect(classic.contains("<div class=\"transit\""))
    }

    @Test func aPosterTicketListsItsUpcomingEventsOnTheBack() throws {
        let folder = try Self.copy("PosterEventTicket") { json in
            json["upcomingPassInformation"] = [
                [
                    "type": "event", "identifier": "night-2", "name": "Northern Lights Live, night 2",
                    "dateInformation": ["date": "2026-10-04T19:30:00+02:00", "timeZone": "Europe/Oslo"],
                ],
                ["type": "event", "identifier": "night-3", "name": "Night 3"],
            ]
        }
        let page = try PassPreview(templateFolder: folder, data: try Self.sample("PosterEventTicket")).html(Self.options)
        #expect(page.contains("<h4>Upcoming events</h4>"))
        #expect(page.contains("Northern Lights Live, night 2</div><div class=\"value\">Oct 4, 2026 at 7:30"))
        #expect(page.contains("Night 3</div><div class=\"value\">Date to be announced"))
    }

    @Test func aDelayedFlightShowsItsCurrentTimesAndPosterColoursCanBeAutomatic() throws {
        var data = try Self.sample("SemanticBoardingPass")
        let boarding = try Self.copy("SemanticBoardingPass") { json in
            var tags = json["semantics"]!.objectValue!
            tags["currentDepartureDate"] = "2026-12-27T15:10:00+00:00"
            json["semantics"] = .object(tags)
        }
        data["originTimeZone"] = "Europe/Lisbon"
        let page = try PassPreview(templateFolder: boarding, data: data).html(Self.options)
        #expect(
            page.contains("data-role=\"departure\"><div class=\"code\">LIS</div><div class=\"city\">Lisbon</div><div class=\"time\">3:10"))
        let poster = try Self.copy("PosterEventTicket") { json in
            json["useAutomaticColors"] = true
            json["suppressHeaderDarkening"] = true
        }
        let posterPage = try PassPreview(templateFolder: poster, data: try Self.sample("PosterEventTicket")).html(Self.options)
        #expect(posterPage.contains("--fg: rgb(255, 255, 255); --label: rgba(255, 255, 255, 0.7)"))
        #expect(!posterPage.contains("artwork darkened"))
        #expect(try Self.html("PosterEventTicket").contains("artwork darkened"))
    }

    @Test func aBrokenImageAndAnUnknownKeyStillPreview() throws {
        let folder = try Self.copy("Loyalty") { $0["madeUpKey"] = "surprise" }
        try FileIO.writeAtomically(Array("not a png".utf8), to: folder + "/strip@2x.png")
        let preview = try PassPreview(templateFolder: folder, data: try Self.sample("Loyalty"))
        let page = preview.html(Self.options)
        #expect(page.contains("id=\"front\""))
        #expect(preview.diagnostics.contains { $0.code == "preview-template" })
        #expect(preview.diagnostics.contains { $0.path == "madeUpKey" || $0.message.contains("madeUpKey") })
        #expect(page.contains("<li class=\"error\">"))
        #expect(page.contains("strip@2x.png"))
    }

    @Test func aPassWithUnreadableJSONStillPreviews() throws {
        let contents = PassContents(
            source: "broken.pkpass", passJSON: nil, files: [], isTemplate: false,
            readingDiagnostics: [Diagnostic(.error, "json-syntax", path: "", "invalid JSON", fix: "fix it")])
        let page = PassPreview(contents: contents).html(Self.options)
        #expect(page.contains("pass.json could not be read"))
        #expect(page.contains("json-syntax"))
    }

    @Test func theChosenLanguageIsShown() throws {
        var options = Self.options
        options.language = "fr"
        let french = try Self.html("Festival", options)
        #expect(french.contains("<html lang=\"fr\">"))
        options.language = "zh-Hans"
        #expect(try Self.html("Festival", options).contains("<html lang=\"zh-Hans\">"))
    }

    @Test func withoutALocalizationDatesAndNoticesFollowTheDeviceLanguage() throws {
        let folder = try Self.copy("Coupon") { $0["voided"] = true }
        var options = Self.options
        options.language = "de"
        let page = try PassPreview(templateFolder: folder, data: try Self.sample("Coupon")).html(options)
        #expect(page.contains("Dieser Pass ist ungültig"))
        #expect(page.contains("31. Dezember 2026"), "the back's long date in German")
    }

    @Test func aGalleryPreviewsEveryTemplate() throws {
        let gallery = try PassPreviewGallery(folder: Self.templates.path)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.templates.path).filter { $0.hasSuffix(".pass") }
        #expect(gallery.entries.count == names.count)
        for entry in gallery.entries {
            #expect(!entry.preview.diagnostics.contains { $0.code == "preview-template" }, "\(entry.name): \(entry.preview.diagnostics)")
            #expect(entry.preview.html(Self.options).contains("id=\"front\""))
        }
        #expect(gallery.indexHTML().contains("href=\"Loyalty.html\""))
    }
}

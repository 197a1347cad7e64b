import Foundation
import Passmint
import PassmintPreview
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint preview` pages opened in a real browser (headless Chromium over the DevTools protocol, by
/// Tests/Browser/check_page.py): no console error and no failed request, every front field's label and value visible
/// on the front, the screenshot's barcode decoding (zxing-cpp) to the pass's message, the enhanced layouts, the
/// translated labels of a `--lang` preview, and what the Watch view leaves out.
@Suite(.serialized, .offPool, .enabled(if: TestEnvironment.runsChromiumTests)) struct PreviewBrowserTests {
    static let templates = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")

    static func preview(_ arguments: [String], environment: [String: String] = [:]) async throws -> TestEnvironment.ProcessResult {
        try await onOwnThread { try TestEnvironment.run(CreateCommandTests.binary, ["preview"] + arguments, environment: environment) }
    }

    /// check_page.py on a preview file: a tall window at 2 device pixels a CSS pixel, fields reported.
    static func open(_ file: String, _ extra: [String] = []) async throws -> JSONValue {
        let url = URL(fileURLWithPath: file).absoluteString
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Browser/check_page.py").path
        let arguments = [script, url, "--fields", "--scale", "2", "--width", "900", "--height", "1700"] + extra
        let result = try await onOwnThread { try TestEnvironment.run("/usr/bin/env", ["python3"] + arguments) }
        #expect(result.status == 0, "check_page.py failed: \(result.stderr)")
        let report = try JSONParser.value(Array(result.stdout.utf8))
        #expect(report["consoleErrors"] == [], "\(file): \(report["consoleErrors"] ?? .null)")
        #expect(report["exceptions"] == [], "\(file)")
        #expect(report["failedRequests"] == [], "\(file): \(report["failedRequests"] ?? .null)")
        return report
    }

    static func decoded(_ report: JSONValue) -> [String] {
        report["barcodes"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }

    /// The front fields Wallet shows of a rendered pass (within the style's limits), each with its label translated
    /// from the first `.lproj` by name, as the preview shows it, and the area (row) the style puts it in.
    static func frontFields(_ pass: JSONObject, files: [PassFile]) -> [(key: String, label: String, area: String)] {
        guard let style = Pass.Style.allCases.first(where: { pass[$0.rawValue] != nil }), let fields = pass[style.rawValue] else {
            return []
        }
        let strings = files.filter { $0.path.hasSuffix(".lproj/pass.strings") }.sorted { $0.path < $1.path }.first
        let table = Dictionary(
            ((try? StringsFile.parse(strings?.bytes ?? [])) ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let formats = ["PKBarcodeFormatQR", "PKBarcodeFormatAztec"]
        let square = pass["barcodes"]?.arrayValue?.first.map { formats.contains($0["format"]?.stringValue ?? "") }
        let limits = PreviewLayout.limits(style: style, squareBarcode: square ?? false)
        let combined = limits.secondaryAndAuxiliary.map { _ in "secondary-auxiliary" }
        func take(_ name: String, _ count: Int, _ area: String) -> [(JSONValue, String)] {
            (fields[name]?.arrayValue ?? []).prefix(count).map { ($0, area) }
        }
        let secondary = take("secondaryFields", limits.secondaryAndAuxiliary ?? limits.secondary, combined ?? "secondary")
        let auxiliaryCount = limits.secondaryAndAuxiliary.map { $0 - secondary.count } ?? limits.auxiliary
        let chosen =
            take("headerFields", limits.header, "header") + take("primaryFields", limits.primary, "primary") + secondary
            + take("auxiliaryFields", auxiliaryCount, combined ?? "auxiliary")
        return chosen.compactMap { field, area in
            guard let key = field["key"]?.stringValue else { return nil }
            let label = field["label"]?.stringValue ?? ""
            return (key, table[label] ?? label, area)
        }
    }

    /// The order of the areas top to bottom: a boarding pass puts its auxiliary fields above its secondary ones.
    static func areaOrder(_ pass: JSONObject) -> [String] {
        pass["boardingPass"] != nil
            ? ["header", "primary", "auxiliary", "secondary"] : ["header", "primary", "secondary", "secondary-auxiliary", "auxiliary"]
    }

    @Test func everyTemplatePreviewsInChromiumWithItsFieldsAndBarcode() async throws {
        let site = TestEnvironment.temporaryFolder("preview-site").appendingPathComponent("site").path
        let made = try await Self.preview([Self.templates.path, "--output", site, "--time-zone", "UTC"])
        #expect(made.status == 0, "\(made.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.templates.path).filter { $0.hasSuffix(".pass") }.sorted()
        try #require(names.count >= 10)
        let index = try await Self.open(site + "/index.html")
        for name in names {
            let base = String(name.dropLast(5))
            #expect(index["text"]?.stringValue?.contains(base) == true)
            let template = try PassTemplate(folder: Self.templates.appendingPathComponent(name).path)
            let data = try JSONParser.value(try FileIO.read(Self.templates.appendingPathComponent(base + ".json").path, what: ""))
                .objectValue!
            let pass = try template.render(data: template.typed(data))
            let report = try await Self.open(
                site + "/\(base).html", ["--element", "#front", "--element", ".poster", "--element", ".semantic-boarding"])
            #expect(report["elements"]?["#front"]?["visible"] == true, "\(base)")
            let shown = report["fields"]?.arrayValue ?? []
            let schemes = pass["preferredStyleSchemes"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if schemes.contains("posterEventTicket") {
                #expect(report["elements"]?[".poster"]?["visible"] == true, "\(base) draws the poster layout")
                #expect(report["text"]?.stringValue?.contains(pass["semantics"]?["eventName"]?.stringValue ?? "?") == true)
            } else if schemes.contains("semanticBoardingPass") {
                #expect(report["elements"]?[".semantic-boarding"]?["visible"] == true, "\(base) draws the semantic boarding layout")
                #expect(report["text"]?.stringValue?.contains(pass["semantics"]?["departureAirportCode"]?.stringValue ?? "?") == true)
            } else {
                var tops: [String: (top: Double, bottom: Double)] = [:]
                for expected in Self.frontFields(pass, files: try template.renderFiles(data: template.typed(data))) {
                    let field = shown.first { $0["key"]?.stringValue == expected.key && $0["card"] == "front" }
                    #expect(field?["visible"] == true, "\(base): front field \(expected.key) is not visible")
                    let area = field?["area"]?.stringValue ?? ""
                    #expect(area == expected.area || area == expected.area + " row-1", "\(base): \(expected.key) is in \(area)")
                    let y = field?["y"]?.numberValue?.doubleValue ?? .nan
                    let known = tops[expected.area] ?? (y, y)
                    tops[expected.area] = (min(known.top, y), max(known.bottom, y))
                    #expect(field?["label"]?.stringValue?.lowercased() == expected.label.lowercased(), "\(base): \(expected.key)")
                    #expect(field?["value"]?.stringValue?.isEmpty == false, "\(base): \(expected.key) has no value")
                }
                // Each area's fields start below the fields of the area above it.
                let order = Self.areaOrder(pass).filter { tops[$0] != nil }
                for (upper, lower) in zip(order, order.dropFirst()) {
                    #expect(tops[upper]!.bottom < tops[lower]!.top, "\(base): \(upper) fields are not above \(lower) fields")
                }
            }
            if let barcode = pass["barcodes"]?.arrayValue?.first, let message = barcode["message"]?.stringValue {
                #expect(
                    Self.decoded(report).contains(message), "\(base): the screenshot's barcode is \(Self.decoded(report)), not \(message)")
            }
        }
    }

    @Test(arguments: ["PKBarcodeFormatQR", "PKBarcodeFormatPDF417", "PKBarcodeFormatAztec", "PKBarcodeFormatCode128"])
    func everyBarcodeFormatScansFromTheScreenshot(format: String) async throws {
        let folder = TestEnvironment.temporaryFolder("preview-barcode")
        let template = folder.appendingPathComponent("Card.pass")
        try FileManager.default.copyItem(at: Self.templates.appendingPathComponent("Loyalty.pass"), to: template)
        let path = template.appendingPathComponent("pass.json").path
        var json = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        let message = "PASSMINT-\(format.dropFirst(15))-0042"
        json["barcodes"] = [
            ["format": .string(format), "message": .string(message), "messageEncoding": "iso-8859-1", "altText": "Member 42"]
        ]
        try FileIO.writeAtomically(JSONWriter.data(.object(json), style: .pretty), to: path)
        let page = folder.appendingPathComponent("card.html").path
        let made = try await Self.preview([
            template.path, "--data", Self.templates.appendingPathComponent("Loyalty.json").path, "--output", page,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let report = try await Self.open(page, ["--element", "#front figcaption", "--element", "#watch-card figure.barcode"])
        #expect(Self.decoded(report).contains(message), "decoded \(Self.decoded(report))")
        #expect(report["elements"]?["#front figcaption"]?["visible"] == true, "altText below the barcode")
        // The Watch draws no Code 128 (this pass has no other barcode).
        #expect((report["elements"]?["#watch-card figure.barcode"] == .null) == (format == "PKBarcodeFormatCode128"))
    }

    @Test(arguments: [
        ("PKBarcodeFormatEAN13", "4006381333931"), ("PKBarcodeFormatCode39", "PASSMINT-42"), ("PKBarcodeFormatCodabar", "A40156B"),
        ("PKBarcodeFormatI2of5", "1234567890"),
    ])
    func theIOS27FormatsScanWhenPreviewedForIOS27(format: String, message: String) async throws {
        let folder = TestEnvironment.temporaryFolder("preview-ios27")
        let template = folder.appendingPathComponent("Card.pass")
        try FileManager.default.copyItem(at: Self.templates.appendingPathComponent("Loyalty.pass"), to: template)
        let path = template.appendingPathComponent("pass.json").path
        var json = try JSONParser.value(try FileIO.read(path, what: "")).objectValue!
        json["barcodes"] = [
            ["format": .string(format), "message": .string(message), "messageEncoding": "iso-8859-1"],
            ["format": "PKBarcodeFormatQR", "message": "classic-fallback", "messageEncoding": "iso-8859-1"],
        ]
        try FileIO.writeAtomically(JSONWriter.data(.object(json), style: .pretty), to: path)
        let data = Self.templates.appendingPathComponent("Loyalty.json").path
        for iOS27 in [true, false] {
            let page = folder.appendingPathComponent("card-\(iOS27).html").path
            let made = try await Self.preview([template.path, "--data", data, "--output", page] + (iOS27 ? ["--ios27"] : []))
            #expect(made.status == 0, "\(made.stderr)")
            let decoded = Self.decoded(try await Self.open(page))
            // iOS 27 shows the new format; today's devices skip to the classic fallback.
            #expect(decoded.contains(iOS27 ? message : "classic-fallback"), "\(format), iOS 27 \(iOS27): \(decoded)")
            #expect(!decoded.contains(iOS27 ? "classic-fallback" : message), "\(format), iOS 27 \(iOS27): \(decoded)")
        }
    }

    @Test func theWatchViewHidesStripThumbnailAndBack() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-watch").path
        for name in ["Loyalty", "EventTicket"] {
            let page = folder + "/\(name).html"
            let made = try await Self.preview([
                Self.templates.appendingPathComponent("\(name).pass").path, "--data",
                Self.templates.appendingPathComponent("\(name).json").path,
                "--output", page,
            ])
            #expect(made.status == 0, "\(made.stderr)")
            let report = try await Self.open(
                page,
                [
                    "--element", "#watch-card", "--element", "#watch-card .strip", "--element", "#watch-card img.thumbnail",
                    "--element", "#front .strip", "--element", "#front img.thumbnail", "--element", "#back", "--element", "#watch #back",
                ])
            #expect(report["elements"]?["#watch-card"]?["visible"] == true)
            #expect(report["elements"]?["#watch-card .strip"] == .null)
            #expect(report["elements"]?["#watch-card img.thumbnail"] == .null)
            #expect(report["elements"]?["#watch #back"] == .null)
            #expect(report["elements"]?["#back"]?["visible"] == true)
            let phoneImage = name == "Loyalty" ? "#front .strip" : "#front img.thumbnail"
            #expect(report["elements"]?[phoneImage]?["visible"] == true, "\(name): \(phoneImage) on the phone")
            #expect((report["fields"]?.arrayValue ?? []).contains { $0["card"] == "watch-card" && $0["visible"] == true })
        }
    }

    @Test func aFrenchPreviewShowsTheTranslatedLabels() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-lang").path
        let template = Self.templates.appendingPathComponent("Festival.pass").path
        let data = Self.templates.appendingPathComponent("Festival.json").path
        let fr = try await Self.preview([template, "--data", data, "--lang", "fr", "--output", folder + "/fr.html"])
        try #require(fr.status == 0, "\(fr.stderr)")
        let plain = try await Self.preview([template, "--data", data, "--output", folder + "/default.html"])
        try #require(plain.status == 0, "\(plain.stderr)")
        let french = try await Self.open(folder + "/fr.html")
        let english = try await Self.open(folder + "/default.html")
        let frenchLabels = (french["fields"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
        let englishLabels = (english["fields"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
        #expect(frenchLabels.contains("NOM") && frenchLabels.contains("BILLET"), "\(frenchLabels)")
        #expect(englishLabels.contains("NAME") && !englishLabels.contains("NOM"), "\(englishLabels)")
        #expect(french["text"]?.stringValue?.contains("Festival de la Menthe 2026") == true)
    }
}

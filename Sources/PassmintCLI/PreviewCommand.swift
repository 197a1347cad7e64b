import ArgumentParser
import Foundation
import Passmint
import PassmintPreview

/// `--side`: front, back or both.
enum PreviewSide: String, ExpressibleByArgument, CaseIterable {
    case front, back, both

    var side: PassPreview.Side { PassPreview.Side(rawValue: rawValue) ?? .both }
}

struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw a pass as Wallet lays it out, as one self-contained HTML page (and a PNG through headless Chromium).",
        discussion: """
            The page shows the front and back on an iPhone and the Apple Watch view beside them (and with --google the \
            Google Wallet card the pass becomes), with real barcodes \
            (QR, PDF417, Aztec, Code 128) drawn in-process, images inlined, no script and no network access; lint's \
            findings are listed under the picture. A pass with a broken image or an unknown key still previews.

            Given a folder of templates (PassTemplates/), preview draws each Name.pass with the sample data in Name.json \
            beside it into --output as a folder: index.html and one page per template.

            A Wallet order (an order template folder holding order.json, or a .order) is drawn as Wallet's order \
            screen: merchant, status, each fulfillment's progress with tracking, delivery or pickup window and pickup \
            code, line items and payment, translated with --lang (and --png as for passes).

            Dates and times are shown in --time-zone, else the "timeZone" of passmint.json (--project), else this \
            machine's zone; a date without a time (2026-12-24), or shown without its time, is the day it names in any \
            zone. With --google, the Google Wallet card's numbers and dates read as the Apple one's, in --lang.

            Examples:
              passmint preview PassTemplates/Loyalty.pass --data PassTemplates/Loyalty.json --output card.html --png card.png
              passmint preview PassTemplates/Festival.pass --data PassTemplates/Festival.json --lang fr --side both --output fr.html
              passmint preview card.pkpass --output card.html
              passmint preview PassTemplates/ --output site/
              passmint preview OrderTemplates/Shipment.order --data OrderTemplates/Shipment.json --lang de --output order.html
              passmint preview OrderTemplates/StorePickup.order --data OrderTemplates/StorePickup.json --output pickup.html --png pickup.png
            """
    )

    @Argument(help: ArgumentHelp("Template folder, .pkpass file, or a folder of templates (a gallery).", valueName: "path"))
    var path: String

    @OptionGroup var data: DataOptions

    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp("The device's language: its .lproj (else the pass's first), and dates and numbers in it.", valueName: "language")
    )
    var language: String?

    @Option(help: ArgumentHelp("Which side to draw: front, back or both.", valueName: "side"))
    var side: PreviewSide = .both

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the HTML page (a folder for a gallery).", valueName: "card.html"))
    var output: String

    @Option(help: ArgumentHelp("Also write a PNG screenshot, rendered by headless Chromium.", valueName: "card.png"))
    var png: String?

    @Option(help: ArgumentHelp("Device pixels per CSS pixel of the PNG (1–3).", valueName: "n"))
    var scale = 2

    @Flag(help: "Leave out the Apple Watch view.")
    var noWatch = false

    @Flag(name: .customLong("ios27"), help: "Draw the barcode an iOS 27 device shows (Code 39, Codabar, EAN-13 or ITF when listed first).")
    var iOS27 = false

    @Flag(
        help:
            "Draw the Google Wallet card the pass becomes (as passmint google link maps it) beside the Apple one; passmint lint --google lists what does not carry over."
    )
    var google = false

    @Option(
        help: ArgumentHelp(
            "The viewer's time zone for dates and times, e.g. Europe/Paris (default: \"timeZone\" in passmint.json, else this machine's).",
            valueName: "identifier"))
    var timeZone: String?

    @Option(
        help: ArgumentHelp(
            "Project file whose \"timeZone\" the preview takes (default: passmint.json in the current folder, when there is one).",
            valueName: "passmint.json"))
    var project: String?

    func run() async throws {
        var options = PassPreview.Options(language: language, side: side.side, showsWatch: !noWatch)
        options.iOS27Barcodes = iOS27
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3") }
        if let zone = try viewerTimeZone() { options.timeZone = zone }
        if Self.isOrder(path) { return try writeOrderPreview(timeZone: options.timeZone) }
        if Self.isGallery(path) {
            guard data.data == nil && data.assignments.isEmpty else {
                throw ValidationError(
                    "--data and --set fill one template; a folder of templates takes each Name.pass's data from Name.json beside it")
            }
            try writeGallery(options)
            return
        }
        let preview = try Self.load(path, data: try data.load())
        if google { options.googleCard = try Self.googleCard(preview, path: path, previewOptions: options) }
        try FileIO.writeAtomically(Array(preview.html(options).utf8), to: output)
        let errors = preview.diagnostics.filter { $0.severity == .error }.count
        print(
            "\(output): preview of \(path) (\(errors) error(s), \(preview.diagnostics.count - errors) warning(s) listed under the picture)")
        if let png {
            try PreviewScreenshot.capture(
                html: output, png: png, size: PreviewScreenshot.size(for: preview, options: options, google: google), scale: scale)
            print("\(png): screenshot by headless Chromium")
        }
    }

    /// The time zone dates are shown in: `--time-zone`, else the project file's `"timeZone"` (the zone its spreadsheets'
    /// dates are written in), else nil (this machine's).
    func viewerTimeZone() throws -> TimeZone? {
        if let timeZone {
            guard let zone = FormattableTimeZone.named(timeZone) else {
                throw ValidationError(
                    "--time-zone \(timeZone) is not a time zone identifier within ±14:00 of UTC; use one such as Europe/Paris or UTC")
            }
            return zone
        }
        guard let file = try ProjectFile.load(project), let name = file.timeZone else { return nil }
        guard let zone = FormattableTimeZone.named(name) else {
            throw ValidationError(
                "project file \(file.path): \"timeZone\" \(name) is not a time zone identifier within ±14:00 of UTC; use one such as "
                    + "Europe/Paris or UTC")
        }
        return zone
    }

    /// A folder without pass.json holding `*.pass` folders.
    static func isGallery(_ path: String) -> Bool {
        guard !FileManager.default.fileExists(atPath: path + "/pass.json"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { return false }
        return names.contains { $0.hasSuffix(".pass") }
    }

    static func load(_ path: String, data: JSONObject) throws -> PassPreview {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ValidationError("\(path) does not exist: give a template folder (Name.pass/), a .pkpass or a folder of templates")
        }
        if isFolder.boolValue { return try PassPreview(templateFolder: path, data: data) }
        return try PassPreview(pkpass: try FileIO.readArchive(path, what: "pass"), source: path)
    }

    private func writeGallery(_ options: PassPreview.Options) throws {
        let gallery = try PassPreviewGallery(folder: path)
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw PassmintError(.fileSystem, "cannot create the folder \(output): \(error.localizedDescription)")
        }
        for entry in gallery.entries {
            try FileIO.writeAtomically(Array(entry.preview.html(options).utf8), to: output + "/" + entry.page)
        }
        try FileIO.writeAtomically(Array(gallery.indexHTML().utf8), to: output + "/index.html")
        print("\(output)/index.html: \(gallery.entries.count) template(s) previewed")
        if let png {
            try PreviewScreenshot.capture(
                html: output + "/index.html", png: png, size: (800, 200 + 40 * gallery.entries.count), scale: scale)
        }
    }
}

import Foundation
import Passmint
import PassmintPreview

/// `passmint preview --png`: a screenshot of the preview page taken by headless Chromium (Debian's `chromium`, or the
/// browser named by `PASSMINT_CHROMIUM`).
enum PreviewScreenshot {
    /// The browser to use: `PASSMINT_CHROMIUM`, else the first of chromium, chromium-browser, google-chrome on PATH.
    static func browser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let chosen = environment["PASSMINT_CHROMIUM"], !chosen.isEmpty {
            return FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) { return folder + "/" + name }
        }
        return nil
    }

    /// A window big enough for the page: the phone (and Watch) side by side, the back and the findings below.
    static func size(for preview: PassPreview, options: PassPreview.Options, google: Bool = false) -> (width: Int, height: Int) {
        let width = (options.showsWatch ? 640 : 380) + (google ? 380 : 0)
        var height = 150 + (options.side == .back ? 0 : 520)
        if options.side != .front {
            let backText = preview.passJSON.members.compactMap(\.value.objectValue).flatMap { $0["backFields"]?.arrayValue ?? [] }
            height +=
                90
                + backText.reduce(0) { total, field in
                    total + 50 + ((field["value"]?.stringValue?.count ?? 10) / 38) * 19
                }
        }
        height += 60 + preview.diagnostics.count * 60
        return (width, height)
    }

    /// Renders `html` (a file) to `png` at `size` CSS pixels, `scale` device pixels each.
    ///
    /// - Throws: `PassmintError` `.fileSystem` saying how to install Chromium when there is none, or what the
    ///   browser said when it wrote no picture.
    static func capture(html: String, png: String, size: (width: Int, height: Int), scale: Int = 2) throws {
        guard let browser = browser() else {
            throw PassmintError(
                .fileSystem,
                "--png needs Chromium, which is not installed: run `apt-get install chromium` (Debian/Ubuntu; or "
                    + "scripts/install-dependencies.sh), or set PASSMINT_CHROMIUM to a Chromium or Chrome binary. "
                    + "The HTML page was written."
            )
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let target = URL(fileURLWithPath: png).standardizedFileURL.path
        try? FileManager.default.removeItem(atPath: target)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--hide-scrollbars", "--force-device-scale-factor=\(scale)", "--user-data-dir=\(profile)",
            "--window-size=\(size.width),\(size.height)", "--screenshot=\(target)",
            URL(fileURLWithPath: html).standardizedFileURL.absoluteString,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw PassmintError(.fileSystem, "cannot start \(browser): \(error.localizedDescription)")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard FileManager.default.fileExists(atPath: target) else {
            let tail = String(decoding: said.suffix(600), as: UTF8.self)
            throw PassmintError(.fileSystem, "\(browser) wrote no screenshot (exit status \(process.terminationStatus)): \(tail)")
        }
    }
}

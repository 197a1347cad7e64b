import Foundation
import Passmint
import PassmintPreview

/// The "Add to Apple Wallet" page of a pass (or of a Wallet order, ``SharingService/Page/kind``): the organization and the description on the pass's colours, a button that
/// downloads the pass (on an iPhone, Safari hands it to Wallet), and for a desktop a QR code of the same link to scan
/// with the phone. With a Google Wallet link, an Android phone gets "Add to Google Wallet" instead, and a computer
/// both buttons and both QR codes (``LandingPlatform``). Its words are in the page's language (``SharingService/Page/language``),
/// from the one table of the words Passmint's pages write (``PreviewWords``). Server-rendered, no script, readable without images and without styles; the page's policy allows
/// no script and no request except its inline images.
enum LandingPageHTML {
    /// `Content-Security-Policy` of the page: nothing but inline styles and `data:` images.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    static func html(_ page: SharingService.Page, qrCode: QRCode, platform: LandingPlatform = .desktop, googleQRCode: QRCode? = nil)
        -> String
    {
        let organization = escape(page.organizationName)
        let noun = page.kind.rawValue
        let title = [page.organizationName, page.description].filter { !$0.isEmpty }.joined(separator: " – ")
        let background = cssColor(page.backgroundColor) ?? "rgb(28, 28, 30)"
        let foreground = cssColor(page.foregroundColor) ?? "rgb(255, 255, 255)"
        let logo = page.logoPNG.map {
            "<img class=\"logo\" src=\"data:image/png;base64,\(Data($0).base64EncodedString())\" alt=\"\(organization)\">"
        }
        let heading = logo ?? ""
        func words(_ english: String) -> String { escape(PreviewWords.text(english, language: page.language)) }
        let apple = """
            <p><a class="add" id="add-to-wallet" href="\(escape(page.relativeDownloadURL))">\(words("Add to Apple Wallet"))</a></p>
            """
        let google = page.googleSaveURL.map {
            "<p><a class=\"add\" id=\"add-to-google-wallet\" href=\"\(escape($0))\">\(words("Add to Google Wallet"))</a></p>"
        }
        let appleCode = """
            <section class="desktop" aria-labelledby="scan">
            <h2 id="scan">\(words("On a computer?"))</h2>
            <p>\(words("Scan this code with your iPhone's camera to add the \(noun) to Wallet."))</p>
            <div class="qr" id="qr">\(qrCode.svg(title: PreviewWords.text("QR code of the link to this \(noun)", language: page.language)))</div>
            </section>
            """
        let googleCode = googleQRCode.map {
            """
            <section class="desktop" aria-labelledby="scan-google">
            <h2 id="scan-google">\(words("With an Android phone?"))</h2>
            <p>\(words("Scan this code with your Android phone's camera to add the pass to Google Wallet."))</p>
            <div class="qr" id="qr-google">\($0.svg(title: PreviewWords.text("QR code of the Google Wallet link to this pass", language: page.language)))</div>
            </section>
            """
        }
        let action: String
        switch (page.voided, platform, google) {
        case (true, _, _): action = "<p class=\"voided\">\(words("This pass is no longer valid."))</p>"
        case (false, .android, let google?): action = google
        case (false, .desktop, let google?): action = apple + "\n" + google + "\n" + appleCode + "\n" + (googleCode ?? "")
        default: action = apple + "\n" + appleCode
        }
        return """
            \(PageHead.lines(title: title, language: page.language))
            <style>
            body { margin: 0; font-family: -apple-system, system-ui, "Segoe UI", Roboto, sans-serif; background: #f2f2f7; color: #1c1c1e; }
            main { max-width: 30rem; margin: 0 auto; padding: 1.5rem 1rem; text-align: center; }
            .card { background: \(background); color: \(foreground); border-radius: 14px; padding: 1.25rem; text-align: left;
              box-shadow: 0 2px 10px rgba(0, 0, 0, 0.15); }
            .card h1 { font-size: 1.3rem; margin: 0.4rem 0; }
            .card p { margin: 0; opacity: 0.9; }
            .logo { max-height: 50px; max-width: 160px; display: block; }
            a.add { display: inline-block; margin-top: 1.25rem; background: #000; color: #fff; border-radius: 10px;
              padding: 0.8rem 1.5rem; font-weight: 600; text-decoration: none; }
            .qr { width: 240px; height: 240px; margin: 0 auto; }
            .qr svg { width: 100%; height: 100%; }
            .voided { margin-top: 1.25rem; font-weight: 600; }
            @media (max-width: 700px) and (pointer: coarse) { .desktop { display: none; } }
            </style>
            </head>
            <body>
            <main>
            <div class="card">
            \(heading)
            <h1>\(organization)</h1>
            <p>\(escape(page.description))</p>
            </div>
            \(action)
            </main>
            </body>
            </html>

            """
    }

    /// The page of a link whose pass was erased (410): nothing of the pass, only that the link no longer works.
    static func gone() -> String {
        """
        \(PageHead.lines(title: "Pass no longer available"))
        <style>
        body { margin: 0; font-family: -apple-system, system-ui, "Segoe UI", Roboto, sans-serif; background: #f2f2f7; color: #1c1c1e; }
        main { max-width: 30rem; margin: 0 auto; padding: 1.5rem 1rem; text-align: center; }
        </style>
        </head>
        <body>
        <main>
        <h1 id="gone">This pass is no longer available</h1>
        <p>It was removed at its holder's request, so this link no longer works. If you think this is a mistake, ask the
        business that gave you the link for a new one.</p>
        </main>
        </body>
        </html>

        """
    }

    /// Text for HTML content and attribute values.
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// A pass colour (`rgb(r, g, b)`, as `pass.json` writes them) when it is exactly that; nil otherwise, so nothing
    /// but a colour ever reaches the style sheet.
    static func cssColor(_ value: String?) -> String? { value.flatMap(WalletColor.init)?.rgb }
}

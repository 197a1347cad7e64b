import PassmintPreview

/// The first lines of every page the service serves, up to its title: HTML5 in English, UTF-8, scaled for phones, and
/// no referrer sent (a page's address may carry a token).
enum PageHead {
    static func lines(title: String, language: String = "en") -> String {
        """
        <!doctype html>
        <html lang="\(HTMLText.escape(language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(HTMLText.escape(title))</title>
        """
    }
}

import Passmint

/// The words Passmint's pages write themselves, in one table: the preview's (the labels of the enhanced layouts, drawn
/// from semantic tags, which carry no labels; the voided and expired notices; the headings of the back), in the pass's
/// language as Wallet writes them in the device's, and the service's "Add to Apple Wallet" page (its buttons, headings
/// and hints), in the language its reader asks for. English for a language not listed.
package enum PreviewWords {
    /// The languages every entry is translated into, besides English.
    package static let languages = ["de", "es", "fr", "it", "ja", "nl"]

    /// English → [language: translation].
    static let table: [String: [String: String]] = [
        "to": ["fr": "à", "de": "nach", "es": "a", "it": "a", "nl": "naar", "ja": "→"],
        "Date": ["fr": "Date", "de": "Datum", "es": "Fecha", "it": "Data", "nl": "Datum", "ja": "日付"],
        "Venue": ["fr": "Lieu", "de": "Veranstaltungsort", "es": "Recinto", "it": "Luogo", "nl": "Locatie", "ja": "会場"],
        "Location": ["fr": "Ville", "de": "Ort", "es": "Ciudad", "it": "Città", "nl": "Plaats", "ja": "場所"],
        "Name": ["fr": "Nom", "de": "Name", "es": "Nombre", "it": "Nome", "nl": "Naam", "ja": "名前"],
        "Admission": ["fr": "Entrée", "de": "Einlass", "es": "Entrada", "it": "Ingresso", "nl": "Toegang", "ja": "入場"],
        "Section": ["fr": "Section", "de": "Block", "es": "Sección", "it": "Settore", "nl": "Vak", "ja": "ブロック"],
        "Row": ["fr": "Rang", "de": "Reihe", "es": "Fila", "it": "Fila", "nl": "Rij", "ja": "列"],
        "Seat": ["fr": "Place", "de": "Sitz", "es": "Asiento", "it": "Posto", "nl": "Stoel", "ja": "座席"],
        "Gate": ["fr": "Porte", "de": "Gate", "es": "Puerta", "it": "Gate", "nl": "Gate", "ja": "ゲート"],
        "Terminal": ["fr": "Terminal", "de": "Terminal", "es": "Terminal", "it": "Terminal", "nl": "Terminal", "ja": "ターミナル"],
        "Boarding": ["fr": "Embarquement", "de": "Boarding", "es": "Embarque", "it": "Imbarco", "nl": "Boarding", "ja": "搭乗"],
        "Group": ["fr": "Groupe", "de": "Gruppe", "es": "Grupo", "it": "Gruppo", "nl": "Groep", "ja": "グループ"],
        "Passenger": ["fr": "Passager", "de": "Passagier", "es": "Pasajero", "it": "Passeggero", "nl": "Passagier", "ja": "搭乗者"],
        "Flight": ["fr": "Vol", "de": "Flug", "es": "Vuelo", "it": "Volo", "nl": "Vlucht", "ja": "便名"],
        "Class": ["fr": "Classe", "de": "Klasse", "es": "Clase", "it": "Classe", "nl": "Klasse", "ja": "クラス"],
        "This pass is void": [
            "fr": "Ce pass est annulé", "de": "Dieser Pass ist ungültig", "es": "Este pase está anulado",
            "it": "Questo pass è annullato", "nl": "Deze pas is ongeldig", "ja": "このパスは無効です",
        ],
        "This pass has expired": [
            "fr": "Ce pass a expiré", "de": "Dieser Pass ist abgelaufen", "es": "Este pase ha caducado",
            "it": "Questo pass è scaduto", "nl": "Deze pas is verlopen", "ja": "このパスは期限切れです",
        ],
        "Additional Info": [
            "fr": "Informations supplémentaires", "de": "Weitere Infos", "es": "Información adicional",
            "it": "Altre informazioni", "nl": "Meer informatie", "ja": "追加情報",
        ],
        "Upcoming events": [
            "fr": "Événements à venir", "de": "Kommende Events", "es": "Próximos eventos", "it": "Prossimi eventi",
            "nl": "Komende evenementen", "ja": "今後のイベント",
        ],
        "Date to be announced": [
            "fr": "Date à venir", "de": "Datum folgt", "es": "Fecha por anunciar", "it": "Data da annunciare", "nl": "Datum volgt",
            "ja": "日付未定",
        ],
        "Time to be announced": [
            "fr": "Heure à venir", "de": "Uhrzeit folgt", "es": "Hora por anunciar", "it": "Orario da annunciare", "nl": "Tijd volgt",
            "ja": "時刻未定",
        ],
        "Hold near reader": [
            "fr": "Approchez du lecteur", "de": "An das Lesegerät halten", "es": "Acerca al lector", "it": "Avvicina al lettore",
            "nl": "Houd bij de lezer", "ja": "リーダーにかざしてください",
        ],
        // The "Add to Apple Wallet" page.
        "Add to Apple Wallet": [
            "fr": "Ajouter à Apple Wallet", "de": "Zu Apple Wallet hinzufügen", "es": "Añadir a Apple Wallet",
            "it": "Aggiungi a Apple Wallet", "nl": "Voeg toe aan Apple Wallet", "ja": "Apple Walletに追加",
        ],
        "Add to Google Wallet": [
            "fr": "Ajouter à Google Wallet", "de": "Zu Google Wallet hinzufügen", "es": "Añadir a Google Wallet",
            "it": "Aggiungi a Google Wallet", "nl": "Toevoegen aan Google Wallet", "ja": "Google ウォレットに追加",
        ],
        "On a computer?": [
            "fr": "Sur un ordinateur ?", "de": "Am Computer?", "es": "¿En un ordenador?", "it": "Su un computer?",
            "nl": "Op een computer?", "ja": "パソコンをお使いですか？",
        ],
        "Scan this code with your iPhone's camera to add the pass to Wallet.": [
            "fr": "Scannez ce code avec l’appareil photo de votre iPhone pour ajouter le pass à Wallet.",
            "de": "Scannen Sie diesen Code mit der Kamera Ihres iPhone, um den Pass zu Wallet hinzuzufügen.",
            "es": "Escanea este código con la cámara de tu iPhone para añadir el pase a Wallet.",
            "it": "Inquadra questo codice con la fotocamera dell’iPhone per aggiungere il pass a Wallet.",
            "nl": "Scan deze code met de camera van je iPhone om de pas aan Wallet toe te voegen.",
            "ja": "iPhoneのカメラでこのコードをスキャンすると、パスをWalletに追加できます。",
        ],
        "Scan this code with your iPhone's camera to add the order to Wallet.": [
            "fr": "Scannez ce code avec l’appareil photo de votre iPhone pour ajouter la commande à Wallet.",
            "de": "Scannen Sie diesen Code mit der Kamera Ihres iPhone, um die Bestellung zu Wallet hinzuzufügen.",
            "es": "Escanea este código con la cámara de tu iPhone para añadir el pedido a Wallet.",
            "it": "Inquadra questo codice con la fotocamera dell’iPhone per aggiungere l’ordine a Wallet.",
            "nl": "Scan deze code met de camera van je iPhone om de bestelling aan Wallet toe te voegen.",
            "ja": "iPhoneのカメラでこのコードをスキャンすると、注文をWalletに追加できます。",
        ],
        "QR code of the link to this pass": [
            "fr": "Code QR du lien vers ce pass", "de": "QR-Code des Links zu diesem Pass", "es": "Código QR del enlace a este pase",
            "it": "Codice QR del link a questo pass", "nl": "QR-code van de link naar deze pas", "ja": "このパスへのリンクのQRコード",
        ],
        "QR code of the link to this order": [
            "fr": "Code QR du lien vers cette commande", "de": "QR-Code des Links zu dieser Bestellung",
            "es": "Código QR del enlace a este pedido", "it": "Codice QR del link a questo ordine",
            "nl": "QR-code van de link naar deze bestelling", "ja": "この注文へのリンクのQRコード",
        ],
        "With an Android phone?": [
            "fr": "Avec un téléphone Android ?", "de": "Mit einem Android-Smartphone?", "es": "¿Con un teléfono Android?",
            "it": "Con uno smartphone Android?", "nl": "Met een Android-telefoon?", "ja": "Androidスマートフォンをお使いですか？",
        ],
        "Scan this code with your Android phone's camera to add the pass to Google Wallet.": [
            "fr": "Scannez ce code avec l’appareil photo de votre téléphone Android pour ajouter le pass à Google Wallet.",
            "de": "Scannen Sie diesen Code mit der Kamera Ihres Android-Smartphones, um den Pass zu Google Wallet hinzuzufügen.",
            "es": "Escanea este código con la cámara de tu teléfono Android para añadir el pase a Google Wallet.",
            "it": "Inquadra questo codice con la fotocamera dello smartphone Android per aggiungere il pass a Google Wallet.",
            "nl": "Scan deze code met de camera van je Android-telefoon om de pas aan Google Wallet toe te voegen.",
            "ja": "Androidスマートフォンのカメラでこのコードをスキャンすると、パスをGoogle ウォレットに追加できます。",
        ],
        "QR code of the Google Wallet link to this pass": [
            "fr": "Code QR du lien Google Wallet vers ce pass", "de": "QR-Code des Google-Wallet-Links zu diesem Pass",
            "es": "Código QR del enlace de Google Wallet a este pase", "it": "Codice QR del link Google Wallet a questo pass",
            "nl": "QR-code van de Google Wallet-link naar deze pas", "ja": "このパスのGoogle ウォレット用リンクのQRコード",
        ],
        "This pass is no longer valid.": [
            "fr": "Ce pass n’est plus valide.", "de": "Dieser Pass ist nicht mehr gültig.", "es": "Este pase ya no es válido.",
            "it": "Questo pass non è più valido.", "nl": "Deze pas is niet meer geldig.", "ja": "このパスは無効になりました。",
        ],
        "Order": ["fr": "Commande", "de": "Bestellung", "es": "Pedido", "it": "Ordine", "nl": "Bestelling", "ja": "注文"],
    ]

    /// `english` in `language` (`fr`, `fr-CA`, `zh-Hans`: its first part is looked up).
    package static func text(_ english: String, language: String?) -> String {
        let base = language?.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? "en"
        return table[english]?[base] ?? english
    }
}

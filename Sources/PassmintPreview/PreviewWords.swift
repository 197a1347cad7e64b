import Passmint

/// The words the preview writes itself, in the pass's language as Wallet writes them in the device's: the labels of
/// the enhanced layouts (drawn from semantic tags, which carry no labels), the voided and expired notices, the headings
/// of the back. English for a language not listed.
enum PreviewWords {
    /// English → [language: translation].
    static let table: [String: [String: String]] = [
        "to": ["fr": "à", "de": "nach", "es": "a", "it": "a", "nl": "naar"],
        "Date": ["fr": "Date", "de": "Datum", "es": "Fecha", "it": "Data", "nl": "Datum"],
        "Venue": ["fr": "Lieu", "de": "Veranstaltungsort", "es": "Recinto", "it": "Luogo", "nl": "Locatie"],
        "Location": ["fr": "Ville", "de": "Ort", "es": "Ciudad", "it": "Città", "nl": "Plaats"],
        "Name": ["fr": "Nom", "de": "Name", "es": "Nombre", "it": "Nome", "nl": "Naam"],
        "Admission": ["fr": "Entrée", "de": "Einlass", "es": "Entrada", "it": "Ingresso", "nl": "Toegang"],
        "Section": ["fr": "Section", "de": "Block", "es": "Sección", "it": "Settore", "nl": "Vak"],
        "Row": ["fr": "Rang", "de": "Reihe", "es": "Fila", "it": "Fila", "nl": "Rij"],
        "Seat": ["fr": "Place", "de": "Sitz", "es": "Asiento", "it": "Posto", "nl": "Stoel"],
        "Gate": ["fr": "Porte", "de": "Gate", "es": "Puerta", "it": "Gate", "nl": "Gate"],
        "Terminal": ["fr": "Terminal", "de": "Terminal", "es": "Terminal", "it": "Terminal", "nl": "Terminal"],
        "Boarding": ["fr": "Embarquement", "de": "Boarding", "es": "Embarque", "it": "Imbarco", "nl": "Boarding"],
        "Group": ["fr": "Groupe", "de": "Gruppe", "es": "Grupo", "it": "Gruppo", "nl": "Groep"],
        "Passenger": ["fr": "Passager", "de": "Passagier", "es": "Pasajero", "it": "Passeggero", "nl": "Passagier"],
        "Flight": ["fr": "Vol", "de": "Flug", "es": "Vuelo", "it": "Volo", "nl": "Vlucht"],
        "Class": ["fr": "Classe", "de": "Klasse", "es": "Clase", "it": "Classe", "nl": "Klasse"],
        "This pass is void": [
            "fr": "Ce pass est annulé", "de": "Dieser Pass ist ungültig", "es": "Este pase está anulado",
            "it": "Questo pass è annullato", "nl": "Deze pas is ongeldig",
        ],
        "This pass has expired": [
            "fr": "Ce pass a expiré", "de": "Dieser Pass ist abgelaufen", "es": "Este pase ha caducado",
            "it": "Questo pass è scaduto", "nl": "Deze pas is verlopen",
        ],
        "Additional Info": [
            "fr": "Informations supplémentaires", "de": "Weitere Infos", "es": "Información adicional",
            "it": "Altre informazioni", "nl": "Meer informatie",
        ],
        "Upcoming events": [
            "fr": "Événements à venir", "de": "Kommende Events", "es": "Próximos eventos", "it": "Prossimi eventi",
            "nl": "Komende evenementen",
        ],
        "Date to be announced": [
            "fr": "Date à venir", "de": "Datum folgt", "es": "Fecha por anunciar", "it": "Data da annunciare", "nl": "Datum volgt",
        ],
        "Time to be announced": [
            "fr": "Heure à venir", "de": "Uhrzeit folgt", "es": "Hora por anunciar", "it": "Orario da annunciare", "nl": "Tijd volgt",
        ],
        "Hold near reader": [
            "fr": "Approchez du lecteur", "de": "An das Lesegerät halten", "es": "Acerca al lector", "it": "Avvicina al lettore",
            "nl": "Houd bij de lezer",
        ],
    ]

    /// `english` in `language` (`fr`, `fr-CA`, `zh-Hans`: its first part is looked up).
    static func text(_ english: String, language: String?) -> String {
        let base = language?.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? "en"
        return table[english]?[base] ?? english
    }
}
